import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { emptyAsUndefined, parseEnv } from '../config/parse-env';
import { authSettings, type AuthSettings } from '../auth/config';

/** `npm start`'s own variables for the identity service it hosts. */
const stackAuthEnv = z.object({
  AUTH_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  AUTH_HOST: z.string().min(1).default('127.0.0.1'),
});

/**
 * The identity service's settings under `npm start`: the spec's variables when set, otherwise local
 * defaults: the stack's own database, a secret generated once into DATA_DIR/auth-secret (mode 0600), a
 * localhost service and cookie, the default API origin as the trusted origin, and no identity provider.
 */
export function loadStackAuthConfig(
  env: NodeJS.ProcessEnv,
  stack: { dataDir: string; databaseUrl: string; ingestSchema: string },
): AuthSettings & { AUTH_PORT: number; AUTH_HOST: string } {
  const own = parseEnv(stackAuthEnv, env, 'keel start');
  const set = (name: string) => emptyAsUndefined(env[name]) as string | undefined;
  const settings = parseEnv(
    authSettings,
    {
      ...env,
      DATABASE_URL: set('DATABASE_URL') ?? stack.databaseUrl,
      INGEST_SCHEMA: set('INGEST_SCHEMA') ?? stack.ingestSchema,
      AUTHLIB_SECRET: set('AUTHLIB_SECRET') ?? readOrCreateSecret(stack.dataDir),
      AUTHLIB_URL: set('AUTHLIB_URL') ?? `http://localhost:${own.AUTH_PORT}`,
      AUTHLIB_COOKIE_DOMAIN: set('AUTHLIB_COOKIE_DOMAIN') ?? 'localhost',
      TRUSTED_ORIGINS: set('TRUSTED_ORIGINS') ?? 'http://localhost:3000',
      ADMIN_EMAILS: env.ADMIN_EMAILS ?? '',
      PORT: String(own.AUTH_PORT),
      HOST: own.AUTH_HOST,
    },
    'keel start (identity)',
  );
  return { ...settings, ...own };
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
