import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { authEnv, type AuthSettings } from '../auth/config';
import { withDerivedIssuer } from '../auth/oidc-provider-config';
import { providerProblems, readIdentitySecrets, secretSources } from '../auth/secret-settings';
import type { ConfigWarning } from '../secrets/env-or-store';
import type { SecretStore } from '../secrets/store';
import { configError, emptyAsUndefined } from '../config/parse-env';

const port = z.coerce.number().int().min(0).max(65535);
/** Identity's tables sit beside the ingest schema unless INGEST_SCHEMA says otherwise. */
const ingestSchema = authEnv.shape.INGEST_SCHEMA;

/**
 * The identity service's slice of `npm start`'s config: the spec's variables when set, otherwise local defaults (a
 * localhost service and cookie, the default API origin and the console's as trusted origins, the console's pending page
 * as the banned landing, no identity provider). Two defaults are
 * only known once resources exist and are filled by `identitySettings`: the stack's own database and a secret kept in
 * DATA_DIR/auth-secret.
 */
export const stackIdentityEnv = z.preprocess(
  (raw) => {
    const env = raw as NodeJS.ProcessEnv;
    const set = (name: string) => emptyAsUndefined(env[name]) as string | undefined;
    // A bad AUTH_PORT is reported as itself, not again as the AUTHLIB_URL made from it.
    const authPort = port.safeParse(set('AUTH_PORT') ?? 8080).data ?? 8080;
    // Sign-in through the console carries its origin; a banned OIDC caller lands on its pending page.
    const consolePort = port.safeParse(set('CONSOLE_PORT') ?? 3100).data ?? 3100;
    const consoleOrigins = [`http://localhost:${consolePort}`, `http://127.0.0.1:${consolePort}`];
    return {
      ...(withDerivedIssuer(env) as NodeJS.ProcessEnv),
      AUTHLIB_URL: set('AUTHLIB_URL') ?? `http://localhost:${authPort}`,
      AUTHLIB_COOKIE_DOMAIN: set('AUTHLIB_COOKIE_DOMAIN') ?? 'localhost',
      TRUSTED_ORIGINS: set('TRUSTED_ORIGINS') ?? ['http://localhost:3000', ...consoleOrigins].join(','),
      BANNED_REDIRECT_URL: set('BANNED_REDIRECT_URL') ?? `${consoleOrigins[0]}/pending`,
      ADMIN_EMAILS: env.ADMIN_EMAILS ?? '',
      INGEST_SCHEMA: set('INGEST_SCHEMA') ?? ingestSchema.safeParse(set('POSTGRES_SCHEMA')).data,
      PORT: String(authPort),
      HOST: set('AUTH_HOST') ?? '127.0.0.1',
    };
  },
  authEnv
    .omit({ AUTHLIB_SECRET: true, IDP_CLIENT_SECRET: true, INTERNAL_API_TOKEN: true })
    .extend({
      /** Unset: the stack's own database (known once it runs). */
      DATABASE_URL: z.preprocess(emptyAsUndefined, authEnv.shape.DATABASE_URL.optional()),
      /** The identity service's port and address under `npm start`. */
      AUTH_PORT: z.preprocess(emptyAsUndefined, port.default(8080)),
      AUTH_HOST: z.preprocess(emptyAsUndefined, z.string().min(1).default('127.0.0.1')),
      // Where the secrets come from (their variables or the store) is read by `secretSources` below and kept for the
      // start, which reads them; the secrets slice of `npm start` owns the store's own variables.
      AUTHLIB_SECRET: z.unknown().optional(),
      IDP_CLIENT_SECRET: z.unknown().optional(),
      INTERNAL_API_TOKEN: z.unknown().optional(),
      KEEL_SECRETS_FROM_ENV: z.unknown().optional(),
      AUTHLIB_SECRET_ID: z.unknown().optional(),
      IDP_CLIENT_SECRET_ID: z.unknown().optional(),
      INTERNAL_API_TOKEN_SECRET_ID: z.unknown().optional(),
    })
    // Values are checked once read (`identitySettings`), with the provider's three together.
    .transform((value, ctx) => {
      const sources = secretSources(value, ctx);
      const {
        AUTHLIB_SECRET: _authlib,
        IDP_CLIENT_SECRET: _client,
        INTERNAL_API_TOKEN: _internal,
        KEEL_SECRETS_FROM_ENV: _fromEnv,
        AUTHLIB_SECRET_ID: _authlibId,
        IDP_CLIENT_SECRET_ID: _clientId,
        INTERNAL_API_TOKEN_SECRET_ID: _internalId,
        ...rest
      } = value;
      return { ...rest, secretSources: sources };
    }),
);
export type StackIdentityEnv = z.infer<typeof stackIdentityEnv>;

/**
 * The identity service's settings once the stack's database and data directory exist: its secrets (variable, else
 * store), the session secret otherwise generated into DATA_DIR; and the warnings to log once it has a logger.
 */
export async function identitySettings(
  env: StackIdentityEnv,
  stack: { dataDir: string; databaseUrl: string; secrets: SecretStore },
): Promise<{ settings: AuthSettings & { AUTH_PORT: number; AUTH_HOST: string }; warnings: ConfigWarning[] }> {
  const { secretSources: sources, ...rest } = env;
  const { values, problems, warnings } = await readIdentitySecrets(sources, stack.secrets, () => false);
  const settings = {
    ...rest,
    ...values,
    DATABASE_URL: rest.DATABASE_URL ?? stack.databaseUrl,
    AUTHLIB_SECRET: values.AUTHLIB_SECRET ?? readOrCreateSecret(stack.dataDir),
  };
  problems.push(...providerProblems(settings, sources, stack.secrets));
  if (problems.length > 0) throw configError('keel start', problems);
  return { settings, warnings };
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
