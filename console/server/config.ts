import path from 'node:path';
import { z } from 'zod';
import { configError, emptyAsUndefined, parseSlices } from '../../config/parse-env';
import { secretsConfig } from '../../secrets/config';
import { readEnvOrStore, type ConfigWarning, type EnvOrStoreSource } from '../../secrets/env-or-store';
import { SecretIdSchema } from '../../secrets/id';
import { createSecretStore, type SecretStore } from '../../secrets/store';

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
   * whose acting-user headers the ingest API honours (docs/console.md). This variable or the store's file
   * (`consoleTokenSource`), by the rule of every deployment secret: the variable wins (docs/secrets.md).
   */
  CONSOLE_API_TOKEN: z.string(required).min(16, 'an ingest API token (`keel token create --acts-for-users …`)'),
  /** The store id of CONSOLE_API_TOKEN when it is a file of the secrets store (default: CONSOLE_API_TOKEN). */
  CONSOLE_API_TOKEN_SECRET_ID: z.preprocess(emptyAsUndefined, SecretIdSchema.optional()),
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

/** Where CONSOLE_API_TOKEN may come from: the variable, or the store's file (CONSOLE_API_TOKEN_SECRET_ID, by default the same name). */
export function consoleTokenSource(env: {
  CONSOLE_API_TOKEN?: string;
  CONSOLE_API_TOKEN_SECRET_ID?: string;
}): EnvOrStoreSource {
  return {
    variable: 'CONSOLE_API_TOKEN',
    id: env.CONSOLE_API_TOKEN_SECRET_ID ?? 'CONSOLE_API_TOKEN',
    fromEnv: env.CONSOLE_API_TOKEN,
  };
}

/**
 * The console's token by the rule (the variable, else the store), for every holder of it: the console alone, `npm
 * start` and `keel migrate`. A stored value is checked by `rule`, as the variable is; `required` adds a line when
 * neither has one. No line or warning holds the value.
 */
export async function readConsoleToken(
  env: { CONSOLE_API_TOKEN?: string; CONSOLE_API_TOKEN_SECRET_ID?: string },
  store: SecretStore,
  required: boolean,
  /** The holder's rule for the value, which its variable was parsed with too (`keel migrate` asks for 32 characters). */
  rule: z.ZodType<string> = consoleEnv.shape.CONSOLE_API_TOKEN,
): Promise<{ token?: string; problems: string[]; warnings: ConfigWarning[] }> {
  const source = consoleTokenSource(env);
  const read = await readEnvOrStore(source, store);
  if (read.value === undefined) {
    const line = `  CONSOLE_API_TOKEN: required: set CONSOLE_API_TOKEN or put it in ${store.where(source.id!)} (recommended)`;
    return { problems: required ? [line] : [], warnings: read.warnings };
  }
  if (read.from === 'environment') return { token: read.value, problems: [], warnings: read.warnings };
  const checked = rule.safeParse(read.value);
  return checked.success
    ? { token: checked.data, problems: [], warnings: read.warnings }
    : {
        problems: [
          `  CONSOLE_API_TOKEN (secret ${source.id}): ${checked.error.issues.map((i) => i.message).join('; ')}`,
        ],
        warnings: read.warnings,
      };
}

/** The console alone: its variables, with CONSOLE_API_TOKEN a variable or a store file (read here, at start). */
const consoleAloneEnv = consoleEnv.extend({
  CONSOLE_API_TOKEN: z.preprocess(emptyAsUndefined, consoleEnv.shape.CONSOLE_API_TOKEN.optional()),
});

/**
 * The console alone: every variable parsed and its token read (the variable, else the store), every problem in one
 * message; and the warnings to log once it has its logger.
 */
export async function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ config: ConsoleConfig; warnings: ConfigWarning[] }> {
  const { values, problems } = parseSlices({ console: consoleAloneEnv, secrets: secretsConfig }, env);
  const parsed = values.console;
  const store = values.secrets ? createSecretStore(values.secrets) : undefined;
  // The token is looked up even when other variables are bad, so one start-up names everything to fix.
  const variables = {
    CONSOLE_API_TOKEN: emptyAsUndefined(env.CONSOLE_API_TOKEN) as string | undefined,
    CONSOLE_API_TOKEN_SECRET_ID: parsed?.CONSOLE_API_TOKEN_SECRET_ID,
  };
  const token = store ? await readConsoleToken(variables, store, true) : { problems: [], warnings: [] };
  const all = [...problems, ...token.problems];
  if (all.length > 0 || !parsed || !token.token) throw configError('keel console', all);
  return { config: { ...parsed, CONSOLE_API_TOKEN: token.token }, warnings: token.warnings };
}
