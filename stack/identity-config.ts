import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { authEnv, idpAllOrNone, type AuthSettings } from '../auth/config';
import { readIdentitySecrets, secretSources } from '../auth/secret-settings';
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
      ...env,
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
    .extend({
      IDP_CLIENT_ID: authEnv.shape.IDP_CLIENT_ID.optional(),
      IDP_CLIENT_SECRET: authEnv.shape.IDP_CLIENT_SECRET.optional(),
      IDP_ISSUER_URL: authEnv.shape.IDP_ISSUER_URL.optional(),
      /** Unset: the stack's own database (known once it runs). */
      DATABASE_URL: z.preprocess(emptyAsUndefined, authEnv.shape.DATABASE_URL.optional()),
      /** Unset: generated once into DATA_DIR/auth-secret. */
      AUTHLIB_SECRET: z.preprocess(emptyAsUndefined, authEnv.shape.AUTHLIB_SECRET.optional()),
      /** The identity service's port and address under `npm start`. */
      AUTH_PORT: z.preprocess(emptyAsUndefined, port.default(8080)),
      AUTH_HOST: z.preprocess(emptyAsUndefined, z.string().min(1).default('127.0.0.1')),
      // Read by the secrets check below; the secrets slice of `npm start` owns their parsing.
      KEEL_SECRETS_DIR: z.unknown().optional(),
      KEEL_SECRETS_FROM_ENV: z.unknown().optional(),
      AUTHLIB_SECRET_ID: z.string().optional(),
      IDP_CLIENT_SECRET_ID: z.string().optional(),
      INTERNAL_API_TOKEN_SECRET_ID: z.string().optional(),
    })
    // The secret variables are refused as for the identity service alone (docs/secrets.md); where each secret is read
    // from is kept for the start (`identitySettings`), which reads the store and checks the provider's three together.
    .transform((value, ctx) => ({ ...value, secretSources: secretSources(value, ctx) })),
);
export type StackIdentityEnv = z.infer<typeof stackIdentityEnv>;

/**
 * The identity service's settings once the stack's database and data directory exist: its secrets from the store
 * (under the development option, from their variables), the session secret otherwise generated into DATA_DIR.
 */
export async function identitySettings(
  env: StackIdentityEnv,
  stack: { dataDir: string; databaseUrl: string; secrets: SecretStore; secretsDir?: string },
): Promise<AuthSettings & { AUTH_PORT: number; AUTH_HOST: string }> {
  const { secretSources: sources, ...rest } = env;
  const { values, problems } = await readIdentitySecrets(
    sources,
    stack.secrets,
    { dir: stack.secretsDir },
    () => false,
  );
  const settings = {
    ...rest,
    ...values,
    DATABASE_URL: rest.DATABASE_URL ?? stack.databaseUrl,
    AUTHLIB_SECRET: values.AUTHLIB_SECRET ?? readOrCreateSecret(stack.dataDir),
  };
  const idp = authSettingsCheck.safeParse(settings);
  if (!idp.success) problems.push(...idp.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`));
  if (problems.length > 0) throw configError('keel start', problems);
  return settings;
}

/** The provider's three settings come together or not at all, the client secret now from the store. */
const authSettingsCheck = z.custom<Record<string, unknown>>().superRefine((value, ctx) => idpAllOrNone(value, ctx));

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
