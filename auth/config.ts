import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';
import { queueEnvSchema } from '../queue/config';
import { idpAllOrNone } from './oidc-provider-config';

/** zod says "expected string, received undefined" for a missing variable; say what the reader must do. */
const required = { error: (issue: { input?: unknown }) => (issue.input === undefined ? 'required' : undefined) };

const sqlIdentifier = z.string().regex(/^[a-z_][a-z0-9_]*$/, 'a lowercase SQL identifier such as identity');

/** `a, b ,c` → `['a', 'b', 'c']`; empty entries dropped. */
function commaList(value: unknown): unknown {
  return typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '')
    : value;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

const origin = z.url({ protocol: /^https?$/, ...required }).transform((value, ctx) => {
  const url = new URL(value);
  if (url.origin !== value.replace(/\/$/, '')) {
    ctx.addIssue({ code: 'custom', message: `${value} is not a bare origin such as https://app.example.com` });
  }
  return url.origin;
});

/**
 * The identity service's settings: everything the spec lists plus where its tables and the spend ledger
 * live. A bad value stops start-up with one line per variable.
 */
export const authEnv = z.object({
  DATABASE_URL: z.url({
    protocol: /^postgres(ql)?$/,
    error: (issue) => (issue.input === undefined ? 'required' : 'a postgres:// connection string'),
  }),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /** statement_timeout of every pooled connection, in ms; the client gives up on a silent server 2 s later (db/pool.ts). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  /** `true` for managed databases that require TLS. */
  DATABASE_SSL: z.preprocess(emptyAsUndefined, z.stringbool().default(false)),
  /** The identity tables live in this schema, so identity and ingest can share one small database. */
  DATABASE_SCHEMA: sqlIdentifier.default('identity'),
  /** The schema of the ingest service's tables (job_runs is the spend ledger; workflows and jobs for ownership). */
  INGEST_SCHEMA: sqlIdentifier.default('keel'),
  /** Signs the session cookie and its 5-minute cache; at least 32 characters of randomness. */
  AUTHLIB_SECRET: z.string(required).min(32, 'at least 32 characters (e.g. `openssl rand -base64 48`)'),
  /** Public origin of this service; the OAuth callback is `${AUTHLIB_URL}/api/auth/callback/<idp>`. */
  AUTHLIB_URL: origin,
  /** Parent domain of every app host (`example.com`); `localhost` gives a host-only cookie. */
  AUTHLIB_COOKIE_DOMAIN: z.string(required).regex(/^[a-z0-9.-]+$/i, 'a domain such as example.com'),
  /** Comma-separated origins allowed to call /api/auth/* with credentials (CORS and the origin check). */
  TRUSTED_ORIGINS: z.preprocess(commaList, z.array(origin, required).min(1, 'at least one origin')),
  /**
   * The OpenID Connect provider: IDP_ISSUER_URL, IDP_CLIENT_ID and IDP_CLIENT_SECRET together, or none of them for
   * password sign-in only (`idpAllOrNone`). The spec marks the client id and secret required; a deployment that signs
   * people in with passwords alone has no provider to name.
   */
  IDP_CLIENT_ID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  IDP_CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /**
   * The issuer (discovery at `/.well-known/openid-configuration`); http only on loopback. Derived from IDP_ID for the
   * providers with one public issuer (`withDerivedIssuer`), else set with the client id.
   */
  IDP_ISSUER_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^https?$/ })
      .refine((value) => {
        const url = new URL(value);
        return url.protocol === 'https:' || isLoopback(url.hostname);
      }, 'must be https:// (plain http only for a loopback test provider)')
      .optional(),
  ),
  /** The `<idp>` segment of the sign-in and callback paths. */
  IDP_ID: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'lowercase letters, digits and dashes')
    .refine((value) => value !== 'email', '`email` is the password sign-in path')
    .default('oidc'),
  /** Emails promoted to admin on their first sign-in through the provider; may be empty. */
  ADMIN_EMAILS: z.preprocess(
    commaList,
    z.array(
      z.email().transform((email) => email.toLowerCase()),
      required,
    ),
  ),
  /** Monthly budget given to a user when an admin approves them (USD). */
  DEFAULT_BUDGET_USD: z.coerce.number().min(0).max(1_000_000).default(25),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** 0.0.0.0 in a container; loopback by default so a laptop does not expose the service. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Where a banned caller lands after the OAuth callback; absolute, because a relative path would resolve here. */
  BANNED_REDIRECT_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
        message: 'must be an absolute http(s) URL on the app host, e.g. https://app.example.com/login?banned=1',
      })
      .optional(),
  ),
  /** Shares the sign-in rate limit across replicas; unset → per-process memory. */
  REDIS_URL: queueEnvSchema.shape.REDIS_URL,
  KEEL_INSTANCE_ID: queueEnvSchema.shape.KEEL_INSTANCE_ID,
  /**
   * Shared secret of the internal budget-policy endpoint the ingest API calls when the two services keep separate
   * databases (docs/admission.md); the API's IDENTITY_INTERNAL_TOKEN. Unset: the endpoint does not exist (404).
   */
  INTERNAL_API_TOKEN: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .string()
      .min(32, 'at least 32 characters (e.g. `openssl rand -hex 32`)')
      .regex(/^\S+$/, 'no whitespace (it is sent as a bearer token)')
      .optional(),
  ),
  /**
   * The ingest API's base URL when it keeps a database of its own: disabling a user delivers the revocation of their API
   * tokens to its internal endpoint, authenticated by INTERNAL_API_TOKEN (docs/tokens.md). Unset: the tokens are
   * revoked in this database (shared) or not at all.
   */
  INGEST_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  /** Honour X-Forwarded-For from this many proxy hops when keying the sign-in rate limit by IP. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type AuthEnv = z.infer<typeof authEnv>;

/**
 * What the service is built from: the settings with the provider's three together or not at all. Without a provider
 * password sign-in works and the OIDC routes answer 404 `oidc_not_configured`.
 */
export const authSettings = authEnv.superRefine((value, ctx) => idpAllOrNone(value, ctx));
export type AuthSettings = z.infer<typeof authSettings>;
