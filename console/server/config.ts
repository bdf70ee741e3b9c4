import path from 'node:path';
import { z } from 'zod';
import { emptyAsUndefined, parseEnv } from '../../config/parse-env';

/** zod says "expected string, received undefined" for a missing variable; say what the reader must do. */
const required = { error: (issue: { input?: unknown }) => (issue.input === undefined ? 'required' : undefined) };

/** An http(s) base address without a trailing slash, so `${base}/path` is always one slash. */
const baseUrl = z
  .url({ protocol: /^https?$/, ...required })
  .transform((value) => value.replace(/\/+$/, ''))
  .refine((value) => !new URL(value).search && !new URL(value).hash, 'a base address without ?query or #fragment');

/** Where `npm run build` puts the web app: dist/console/web, beside this compiled file's folder. */
export const DEFAULT_WEB_DIR = path.resolve(__dirname, '..', 'web');

/**
 * The console's settings: where the identity service and the ingest API are, the credential it calls the ingest API
 * with, what the sign-in page offers, and where the built web app is. A bad value stops start-up with one line per
 * variable.
 */
export const consoleEnv = z.object({
  CONSOLE_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
  /** 0.0.0.0 in a container; loopback by default so a laptop does not expose the console. */
  CONSOLE_HOST: z.string().min(1).default('127.0.0.1'),
  /** The identity service (preflight, sign-in, admin, budgets); reached server-side only. */
  IDENTITY_URL: baseUrl,
  /** The ingest API (its /v1/* routes); reached server-side only. */
  INGEST_API_URL: baseUrl,
  /**
   * The ingest API token the console acts with: one created with `keel token create --acts-for-users`, the only kind
   * whose acting-user headers the ingest API honours (docs/console.md).
   */
  CONSOLE_API_TOKEN: z.string(required).min(16, 'an ingest API token (`keel token create --acts-for-users …`)'),
  /** Whether the sign-in page shows the email and password form; the endpoint itself is on service-wide. */
  PUBLIC_ENABLE_PASSWORD_LOGIN: z.preprocess(emptyAsUndefined, z.stringbool().default(true)),
  /**
   * The identity service's cookie domain (its AUTHLIB_COOKIE_DOMAIN). The console never sets the session cookie
   * itself (the identity service does, through the proxy); it is used to check the console's own host is under it.
   */
  AUTHLIB_COOKIE_DOMAIN: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z0-9.-]+$/i)
      .optional(),
  ),
  /** The session cookie's name, whose presence is the optimistic page gate. */
  SESSION_COOKIE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('keel_session'),
  /** The Temporal Web UI, for the job page's "open in Temporal" link; unset hides the link. */
  TEMPORAL_UI_URL: z.preprocess(emptyAsUndefined, baseUrl.optional()),
  /** Temporal namespace of the jobs, for that link. */
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  /** The OIDC provider's `<idp>` path segment and the name on the sign-in button; unset hides the button. */
  OIDC_PROVIDER_ID: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z0-9-]+$/)
      .optional(),
  ),
  OIDC_PROVIDER_NAME: z.preprocess(emptyAsUndefined, z.string().min(1).max(80).optional()),
  /** The built single-page app (index.html and its assets). */
  CONSOLE_WEB_DIR: z.string().min(1).default(DEFAULT_WEB_DIR),
  /** Connect timeout towards the identity service and the ingest API (ms): an unreachable one fails fast. */
  UPSTREAM_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  /** Honour X-Forwarded-For from this many proxy hops (the identity service keys its sign-in limit by client IP). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type ConsoleConfig = z.infer<typeof consoleEnv>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ConsoleConfig {
  return parseEnv(consoleEnv, env, 'keel console');
}
