import { z } from 'zod';

/**
 * A secret id: one file name, or several joined by `/` for a secret mounted as a directory of keys
 * (`keel/openai` is the key `openai` of the secret mounted at `KEEL_SECRETS_DIR/keel`). Every segment starts with a
 * letter or digit, so no id can name `..` or an absolute path and leave the secrets directory.
 */
export const SecretIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}(?:\/[A-Za-z0-9][A-Za-z0-9_.-]{0,127}){0,3}$/,
    'a secret id: letters, digits, _ . - (segments joined by /, each starting with a letter or digit)',
  );

/** Prefix of the variables the development option reads secrets from. */
export const SECRET_ENV_PREFIX = 'KEEL_SECRET_';

/**
 * The variable holding secret `id` under KEEL_SECRETS_FROM_ENV: the prefix, then the id upper-cased with every
 * character that cannot appear in a variable name (`/ . -`) as `_` (`keel/openai` → `KEEL_SECRET_KEEL_OPENAI`).
 */
export function secretEnvName(id: string): string {
  return `${SECRET_ENV_PREFIX}${id.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`;
}
