import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import type { StackIdentity } from './identity';
import { buildConsoleApp } from '../console/server/app';
import { readConsoleToken, type ConsoleConfig } from '../console/server/config';
import { configError } from '../config/parse-env';
import type { StackConsoleEnv } from './config';
import { createToken } from '../db/tokens';
import { logConfigWarnings } from '../secrets/env-or-store';
import { noSecrets, type SecretStore } from '../secrets/store';

export interface StackConsole {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * Registers `token` (or a new one) as the console's ingest credential: an admin token of `orgId` (CONSOLE_ORG_ID) that
 * acts for users, so admins signed in to the console see what that org's tokens submit and members see their own.
 * Registering a known token again moves it to `orgId`.
 */
export async function registerConsoleToken(pool: Pool, orgId: string, token?: string): Promise<string> {
  const created = await createToken(pool, {
    userId: 'console',
    orgId,
    isAdmin: true,
    actsForUsers: true,
    label: 'console',
    token,
  });
  return created.token;
}

export function consoleTokenPath(dataDir: string): string {
  return path.join(dataDir, 'console-token');
}

/**
 * The console inside `npm start`, on CONSOLE_PORT (default 3100), in front of the stack's identity service and API.
 * Its ingest credential is CONSOLE_API_TOKEN, by the rule of every deployment secret (the variable, else the store's
 * file; docs/secrets.md), else a token kept in DATA_DIR/console-token (mode 0600); it is registered as the console's:
 * an admin token of CONSOLE_ORG_ID (default `dev`, the CLI's dev token's org) that acts for users.
 */
export async function startStackConsole(options: {
  /** The console's slice of the stack's config, parsed with everything else before anything started. */
  config: StackConsoleEnv;
  dataDir: string;
  pool: Pool;
  identity: StackIdentity;
  apiUrl: string;
  temporalUiUrl?: string;
  logLevel: string;
  /** The stack's secrets store, where CONSOLE_API_TOKEN may be kept; default: none. */
  secrets?: SecretStore;
}): Promise<StackConsole> {
  const own = options.config;
  const configured = await readConsoleToken(own, options.secrets ?? noSecrets, false);
  if (configured.problems.length > 0) throw configError('keel start', configured.problems);
  const file = consoleTokenPath(options.dataDir);
  const kept =
    configured.token ?? (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() || undefined : undefined);
  const token = await registerConsoleToken(options.pool, own.CONSOLE_ORG_ID, kept);
  if (!configured.token) fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });

  const { CONSOLE_ORG_ID: _org, ...consoleSettings } = own;
  const config: ConsoleConfig = {
    ...consoleSettings,
    IDENTITY_URL: own.IDENTITY_URL ?? trimSlash(options.identity.url),
    INGEST_API_URL: own.INGEST_API_URL ?? trimSlash(options.apiUrl),
    CONSOLE_API_TOKEN: token,
    AUTHLIB_COOKIE_DOMAIN: own.AUTHLIB_COOKIE_DOMAIN ?? options.identity.cookieDomain,
    OIDC_PROVIDER_ID: own.OIDC_PROVIDER_ID ?? options.identity.oidcProviderId,
    TEMPORAL_UI_URL: own.TEMPORAL_UI_URL ?? (options.temporalUiUrl ? trimSlash(options.temporalUiUrl) : undefined),
    LOG_LEVEL: options.logLevel as ConsoleConfig['LOG_LEVEL'],
  };
  const app = await buildConsoleApp(config, { logger: { level: config.LOG_LEVEL } });
  logConfigWarnings(app.log, configured.warnings);
  try {
    await app.listen({ host: config.CONSOLE_HOST, port: config.CONSOLE_PORT });
  } catch (err) {
    await app.close();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.CONSOLE_PORT;
  // localhost rather than 127.0.0.1: the address the identity service trusts first and the one to open.
  const host =
    config.CONSOLE_HOST === '127.0.0.1' || config.CONSOLE_HOST === '0.0.0.0' ? 'localhost' : config.CONSOLE_HOST;
  return { url: `http://${host}:${port}`, app, close: () => app.close() };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
