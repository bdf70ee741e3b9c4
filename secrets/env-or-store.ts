import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';
import { SecretIdSchema } from './id';
import type { SecretStore } from './store';

/**
 * A deployment secret: one value per deployment that a spec names as an environment variable (AUTHLIB_SECRET,
 * IDP_CLIENT_SECRET, CHATAPP_SIGNING_SECRET) or that two Keel processes share (INTERNAL_API_TOKEN ↔
 * IDENTITY_INTERNAL_TOKEN, CONSOLE_API_TOKEN). The one rule for all of them (docs/secrets.md): it may be set as the
 * variable or kept in the secrets store; the store is the recommended place, and when both hold a value the variable
 * wins, as the ingest spec says of a provider's key ("env wins"). Both ends of a shared secret follow the same rule.
 */
export interface EnvOrStoreSecret {
  /** The variable that may hold the value, and the default store id. */
  variable: string;
  /** The variable that names another store id (`<variable>_SECRET_ID` unless the secret predates that). */
  idVariable: string;
  /**
   * The store id when `idVariable` is unset: `variable` by default; `null` when the store is read only under an id
   * that is set (CHATAPP_SIGNING_SECRET_ID predates this rule and has no default).
   */
  defaultId?: string | null;
}

/** Where a deployment secret may come from, as parsed at start (the value only when the variable is set). */
export interface EnvOrStoreSource {
  variable: string;
  /** The store id, or undefined when the store is not asked. */
  id?: string;
  fromEnv?: string;
}

/** Something an operator should change, though the process can run: logged as a warning once the logger exists. */
export interface ConfigWarning {
  /** The variable the warning is about. */
  variable: string;
  message: string;
}

/** The source of `secret` in `env`; a malformed id is an issue on `ctx` at the id variable. */
export function envOrStoreSource(
  env: Record<string, unknown>,
  secret: EnvOrStoreSecret,
  ctx: z.RefinementCtx,
): EnvOrStoreSource {
  const fromEnv = emptyAsUndefined(env[secret.variable]);
  const named =
    emptyAsUndefined(env[secret.idVariable]) ?? (secret.defaultId === undefined ? secret.variable : secret.defaultId);
  const source: EnvOrStoreSource = { variable: secret.variable };
  if (typeof fromEnv === 'string') source.fromEnv = fromEnv;
  if (named === null) return source;
  const id = SecretIdSchema.safeParse(named);
  if (id.success) source.id = id.data;
  else ctx.addIssue({ code: 'custom', path: [secret.idVariable], message: id.error.issues[0]!.message });
  return source;
}

/** A deployment secret as read at start: its value (undefined when neither place has one) and what to warn about. */
export interface ReadEnvOrStore {
  value?: string;
  from?: 'environment' | 'store';
  warnings: ConfigWarning[];
}

/**
 * Reads one deployment secret by the rule: the variable when set, else the store's value. A value from the variable
 * is a warning naming the store file to use instead; a value in both places is a warning that the variable wins.
 * The store is read even when the variable is set, so that conflict is seen. Never puts a value in a warning.
 */
export async function readEnvOrStore(source: EnvOrStoreSource, store: SecretStore): Promise<ReadEnvOrStore> {
  const stored = source.id === undefined ? undefined : await store.get(source.id);
  if (source.fromEnv === undefined)
    return stored === undefined ? { warnings: [] } : { value: stored, from: 'store', warnings: [] };
  const where = source.id === undefined ? '' : store.where(source.id);
  const message =
    stored === undefined
      ? `${source.variable} is read from the environment; the secrets store is the recommended place for it${where ? `: ${where}` : ''} (docs/secrets.md)`
      : `${source.variable} is set both as a variable and in the secrets store (${where}): the variable wins (docs/secrets.md); unset one of them`;
  return { value: source.fromEnv, from: 'environment', warnings: [{ variable: source.variable, message }] };
}

/**
 * The deprecation of KEEL_SECRETS_FROM_ENV for deployment secrets: they are read from their variables without it now,
 * so turning it on for them is redundant. It still turns on `KEEL_SECRET_<ID>` for the other secrets (development).
 */
export function redundantFromEnvWarning(env: Record<string, unknown>, variables: readonly string[]): ConfigWarning[] {
  const on = z.stringbool().safeParse(emptyAsUndefined(env.KEEL_SECRETS_FROM_ENV) ?? 'false').data === true;
  const set = variables.filter((name) => emptyAsUndefined(env[name]) !== undefined);
  if (!on || set.length === 0) return [];
  return [
    {
      variable: 'KEEL_SECRETS_FROM_ENV',
      message: `KEEL_SECRETS_FROM_ENV is deprecated for ${set.join(', ')}: those variables are read without it now (and win over a store file). It still turns on KEEL_SECRET_<ID> for the other secrets, in development (docs/secrets.md)`,
    },
  ];
}

/** Logs each warning on `log` (a process's structured logger) with the variable as a field. */
export function logConfigWarnings(
  log: { warn(fields: object, message: string): void },
  warnings: readonly ConfigWarning[],
): void {
  for (const warning of warnings) log.warn({ variable: warning.variable }, warning.message);
}
