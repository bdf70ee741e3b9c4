import path from 'node:path';
import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';
import { SECRET_ENV_PREFIX } from './id';

/** How long a secret read from a file is used before it is read again (ms): rotation shows within this. */
export const DEFAULT_SECRETS_TTL_MS = 5_000;

const secretsVariables = z.object({
  /** The secrets directory: one file per secret id (a Kubernetes secret volume). Absolute. */
  KEEL_SECRETS_DIR: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine((dir) => path.isAbsolute(dir), 'KEEL_SECRETS_DIR must be an absolute path')
      .optional(),
  ),
  /** Development only: also read secret `<id>` from the variable `KEEL_SECRET_<ID>`. Off in production. */
  KEEL_SECRETS_FROM_ENV: z.preprocess(emptyAsUndefined, z.stringbool().default(false)),
  /** A secret file's value is re-read after this many ms (0: on every use). */
  KEEL_SECRETS_TTL_MS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(0).max(3_600_000).default(DEFAULT_SECRETS_TTL_MS),
  ),
  /** The old name of KEEL_SECRETS_DIR; refused rather than ignored, so a deployment does not silently lose its secrets. */
  SECRETS_DIR: z.preprocess(
    emptyAsUndefined,
    z.undefined({ error: 'renamed: set KEEL_SECRETS_DIR (an absolute path) instead' }).optional(),
  ),
});

/** Where a process's secrets store reads from, as parsed at start. */
export interface SecretsSettings {
  dir?: string;
  ttlMs: number;
  /** KEEL_SECRETS_FROM_ENV: the development option is on. */
  fromEnv: boolean;
  /** With KEEL_SECRETS_FROM_ENV only: the `KEEL_SECRET_*` variables, as the process got them; otherwise empty. */
  env: Readonly<Record<string, string>>;
}

/**
 * The secrets slice of every process's config (API, worker, `npm start`, the CLI). Nothing else reads a secret out of
 * the environment: without KEEL_SECRETS_FROM_ENV the `KEEL_SECRET_*` variables are not even kept.
 */
export const secretsConfig = z.custom<NodeJS.ProcessEnv>().transform((env, ctx): SecretsSettings => {
  const parsed = secretsVariables.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  const fromEnv: Record<string, string> = {};
  if (parsed.data.KEEL_SECRETS_FROM_ENV) {
    for (const [name, value] of Object.entries(env)) {
      if (name.startsWith(SECRET_ENV_PREFIX) && value) fromEnv[name] = value;
    }
  }
  return {
    dir: parsed.data.KEEL_SECRETS_DIR,
    ttlMs: parsed.data.KEEL_SECRETS_TTL_MS,
    fromEnv: parsed.data.KEEL_SECRETS_FROM_ENV,
    env: fromEnv,
  };
});
