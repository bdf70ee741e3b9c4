import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { buildAuthApp } from '../../auth/app';
import { authEnv } from '../../auth/config';
import { createCredentialUser } from '../../auth/credential-users';
import type { IdentityTables } from '../../db/qualified-tables';
import type { Role, User } from '../../db/users';
import { buildConsoleApp } from '../../console/server/app';
import { consoleEnv, type ConsoleConfig } from '../../console/server/config';
import { createToken } from '../../db/tokens';
import type { RunningWorker } from '../../temporal/worker';
import { uniqueSuffix } from './env';
import { createIdentityDatabase, INTERNAL_TOKEN } from './identity-database';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

export const PASSWORD = 'correct horse battery staple';
export const DEFAULT_BUDGET_CENTS = 2_500;

/**
 * The whole console path on loopback, in the production shape: the Temporal dev server, PostgreSQL and Redis (infra),
 * the real identity service on a database of its own (asking the ingest API for ownership and spend, as the chart
 * deploys it), the real ingest API with the budget gate (asking the identity service for budgets) and a worker on the
 * offline demo model when asked, and the console in front of both, reached over HTTP like a browser would.
 */
export interface ConsoleStack {
  infra: Infrastructure;
  keel: KeelUnderTest;
  identity: FastifyInstance;
  identityUrl: string;
  identitySchema: string;
  /** The identity service's own database: the ingest pool (`infra.db.pool`) cannot reach these tables. */
  identityPool: Pool;
  tables: IdentityTables;
  console: FastifyInstance;
  consoleUrl: string;
  config: ConsoleConfig;
  /** The console's acting token, and an ordinary admin token of the same org. */
  consoleToken: string;
  /** Starts the worker (the offline demo model) on the ingest API's task queue; none runs until asked. */
  startWorker(): Promise<RunningWorker>;
  webDir: string;
  createUser(input: { email: string; role?: Role; approved?: boolean }): Promise<User>;
  /** Signs in through the console (as a browser would) and returns the Cookie header to send back. */
  signIn(email: string): Promise<string>;
  /** Another console over the same services with some settings replaced (an unreachable identity service…). */
  startConsole(
    overrides: Partial<Record<keyof ConsoleConfig, string>>,
  ): Promise<{ url: string; close(): Promise<void> }>;
  close(): Promise<void>;
}

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ConsoleStackOptions {
  /** The console's port, when the test must know its origin first (an OIDC provider's redirect URI). */
  consolePort?: number;
  /** Identity service settings over the harness's (an identity provider, ADMIN_EMAILS…). */
  identityEnv?: Record<string, string>;
  /** Console settings over the harness's. */
  consoleEnv?: Record<string, string>;
}

export async function startConsoleStack(options: ConsoleStackOptions = {}): Promise<ConsoleStack> {
  const infra = await startInfrastructure();
  const closers: Array<() => Promise<unknown>> = [() => infra.close()];
  const close = async () => {
    for (const fn of closers.reverse()) await fn().catch((err: unknown) => console.error(err));
  };
  try {
    const apart = await createIdentityDatabase();
    closers.push(() => apart.drop());
    const { pool: identityPool, schema: identitySchema, tables } = apart;
    // The identity service and the API each name the other's URL, so the identity service's port is chosen first.
    const identityPort = await freePort();
    const identityUrl = `http://127.0.0.1:${identityPort}`;
    const keel = await startKeel({ ...infra, identityService: { url: identityUrl, internalToken: INTERNAL_TOKEN } });
    closers.push(() => keel.close());

    // The identity service trusts the console's origin (sign-in posts carry it), so the console's port is chosen first.
    const consolePort = options.consolePort ?? (await freePort());
    const consoleOrigin = `http://127.0.0.1:${consolePort}`;
    const authSettings = authEnv.parse({
      DATABASE_URL: apart.dsn,
      DATABASE_SCHEMA: identitySchema,
      INGEST_URL: keel.baseUrl,
      INTERNAL_API_TOKEN: INTERNAL_TOKEN,
      AUTHLIB_SECRET: 'a console test secret of at least thirty-two characters',
      // The browser reaches the identity service only through the console, so the OAuth callback comes back there.
      AUTHLIB_URL: consoleOrigin,
      AUTHLIB_COOKIE_DOMAIN: 'localhost',
      TRUSTED_ORIGINS: consoleOrigin,
      IDP_CLIENT_ID: 'unused',
      IDP_CLIENT_SECRET: 'unused',
      IDP_ISSUER_URL: 'http://127.0.0.1:9/unused',
      ADMIN_EMAILS: '',
      DEFAULT_BUDGET_USD: String(DEFAULT_BUDGET_CENTS / 100),
      KEEL_INSTANCE_ID: `test-${uniqueSuffix()}`,
      ...options.identityEnv,
    });
    const identity = await buildAuthApp({ pool: identityPool, env: authSettings }, { logger: false });
    closers.push(() => identity.close());
    await identity.listen({ host: '127.0.0.1', port: identityPort });

    const { token: consoleToken } = await createToken(infra.db.pool, {
      userId: 'console',
      orgId: 'org-test',
      isAdmin: true,
      actsForUsers: true,
      label: 'console',
    });
    const webDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-console-web-'));
    closers.push(() => fs.rm(webDir, { recursive: true, force: true }));
    await fs.writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Keel</title><div id="root"></div>\n');
    await fs.mkdir(path.join(webDir, 'assets'));
    await fs.writeFile(path.join(webDir, 'assets', 'app-1234.js'), 'console.log("keel");\n');

    const baseEnv: Record<string, string> = {
      IDENTITY_URL: identityUrl,
      INGEST_API_URL: keel.baseUrl,
      CONSOLE_API_TOKEN: consoleToken,
      CONSOLE_WEB_DIR: webDir,
      TEMPORAL_UI_URL: 'http://127.0.0.1:8233',
      UPSTREAM_CONNECT_TIMEOUT_MS: '1000',
      ...options.consoleEnv,
    };
    const startConsole = async (overrides: Record<string, string>, port = 0) => {
      const config = consoleEnv.parse({ ...baseEnv, ...overrides });
      const app = await buildConsoleApp(config, { logger: false });
      const url = await app.listen({ host: '127.0.0.1', port });
      return { app, url, config, close: () => app.close() };
    };
    const main = await startConsole({}, consolePort);
    closers.push(() => main.close());

    const stack: ConsoleStack = {
      infra,
      keel,
      identity,
      identityUrl,
      identitySchema,
      identityPool,
      tables,
      console: main.app,
      consoleUrl: main.url,
      config: main.config,
      consoleToken,
      startWorker: () => keel.startWorker(),
      webDir,
      createUser: (input) =>
        createCredentialUser(identityPool, tables, {
          email: input.email,
          password: PASSWORD,
          role: input.role ?? 'user',
          approved: input.approved ?? true,
          defaultBudgetCents: DEFAULT_BUDGET_CENTS,
        }),
      async signIn(email) {
        const res = await fetch(`${main.url}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: main.url },
          body: JSON.stringify({ email, password: PASSWORD }),
        });
        if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}: ${await res.text()}`);
        return res.headers
          .getSetCookie()
          .map((cookie) => cookie.split(';')[0]!)
          .join('; ');
      },
      async startConsole(overrides) {
        const started = await startConsole(overrides);
        closers.push(() => started.close());
        return { url: started.url, close: started.close };
      },
      close,
    };
    return stack;
  } catch (err) {
    await close();
    throw err;
  }
}
