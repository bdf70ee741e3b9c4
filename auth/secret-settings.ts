import path from 'node:path';
import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';
import type { SecretsSettings } from '../secrets/config';
import { SecretIdSchema } from '../secrets/id';
import type { SecretStore } from '../secrets/store';
import { authEnv, type AuthEnv } from './config';

/**
 * The identity service's three credentials come from the one secrets store (docs/secrets.md), each named by an id
 * variable whose default id is the spec's variable name (the file `KEEL_SECRETS_DIR/AUTHLIB_SECRET`, as VERCEL_TOKEN),
 * never from a variable holding the value: a value in the environment shows in `env`,
 * in a pod spec and in every crash dump of the process table. The identity spec lists AUTHLIB_SECRET and
 * IDP_CLIENT_SECRET as environment variables; docs/secrets.md records why the store wins.
 */
export const IDENTITY_SECRETS = {
  AUTHLIB_SECRET: { idVariable: 'AUTHLIB_SECRET_ID', defaultId: 'AUTHLIB_SECRET', required: true },
  IDP_CLIENT_SECRET: { idVariable: 'IDP_CLIENT_SECRET_ID', defaultId: 'IDP_CLIENT_SECRET', required: true },
  INTERNAL_API_TOKEN: { idVariable: 'INTERNAL_API_TOKEN_SECRET_ID', defaultId: 'INTERNAL_API_TOKEN', required: false },
} as const;
export type IdentitySecretName = keyof typeof IDENTITY_SECRETS;
const NAMES = Object.keys(IDENTITY_SECRETS) as IdentitySecretName[];

/** Where each secret is read from: its id, and under the development option the value its old variable held. */
export interface IdentitySecretSources {
  ids: Record<IdentitySecretName, string>;
  /** With KEEL_SECRETS_FROM_ENV only: AUTHLIB_SECRET, IDP_CLIENT_SECRET, INTERNAL_API_TOKEN as set. */
  fromEnv: Partial<Record<IdentitySecretName, string>>;
}

/** Where the store would look for `id`, for a message that tells an operator what to write. */
function storeFile(dir: string | undefined, id: string): string {
  return dir ? `the file ${path.join(dir, id)}` : `the file <KEEL_SECRETS_DIR>/${id} (set KEEL_SECRETS_DIR)`;
}

/**
 * The `*_SECRET_ID` variables of `env`, and a refusal (an issue on `ctx`) of AUTHLIB_SECRET, IDP_CLIENT_SECRET and
 * INTERNAL_API_TOKEN naming the store file to use instead, unless the development option KEEL_SECRETS_FROM_ENV is on.
 * Shared by the identity service alone and `npm start`.
 */
export function secretSources(env: Record<string, unknown>, ctx: z.RefinementCtx): IdentitySecretSources {
  const developing = z.stringbool().safeParse(emptyAsUndefined(env.KEEL_SECRETS_FROM_ENV) ?? 'false').data === true;
  const dir = emptyAsUndefined(env.KEEL_SECRETS_DIR) as string | undefined;
  const ids = {} as Record<IdentitySecretName, string>;
  const fromEnv: IdentitySecretSources['fromEnv'] = {};
  for (const name of NAMES) {
    const { idVariable, defaultId } = IDENTITY_SECRETS[name];
    const id = SecretIdSchema.safeParse(emptyAsUndefined(env[idVariable]) ?? defaultId);
    if (!id.success) {
      ctx.addIssue({ code: 'custom', path: [idVariable], message: id.error.issues[0]!.message });
      continue;
    }
    ids[name] = id.data;
    const value = emptyAsUndefined(env[name]) as string | undefined;
    if (value === undefined) continue;
    if (developing) fromEnv[name] = value;
    else {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `a secret is not read from the environment: put it in ${storeFile(dir, id.data)} and unset ${name} (docs/secrets.md; KEEL_SECRETS_FROM_ENV=1 allows it in development)`,
      });
    }
  }
  return { ids, fromEnv };
}

/** The identity service's secret slice of its config (see `secretSources`). */
export const identitySecretsConfig = z
  .custom<NodeJS.ProcessEnv>()
  .transform((env, ctx): IdentitySecretSources => secretSources(env, ctx));

/** The identity settings without their secrets: what the environment alone holds. */
export const identityEnvWithoutSecrets = authEnv.omit({
  AUTHLIB_SECRET: true,
  IDP_CLIENT_SECRET: true,
  INTERNAL_API_TOKEN: true,
});
export type IdentityEnvWithoutSecrets = z.infer<typeof identityEnvWithoutSecrets>;

/**
 * Reads the three secrets from the store at start (a file wins over the development variable) and checks each as its
 * setting requires. A missing required secret, or one its rule refuses, is a problem line naming where the store
 * looked; the value never appears in a message.
 */
export async function readIdentitySecrets(
  sources: IdentitySecretSources,
  store: SecretStore,
  settings: Pick<SecretsSettings, 'dir'>,
  /** Under `npm start` none is required: the provider is optional and the session secret is generated. */
  required: (name: IdentitySecretName) => boolean = (name) => IDENTITY_SECRETS[name].required,
): Promise<{ values: Partial<Pick<AuthEnv, IdentitySecretName>>; problems: string[] }> {
  const problems: string[] = [];
  const values: Partial<Record<IdentitySecretName, string>> = {};
  for (const name of NAMES) {
    const id = sources.ids[name];
    const value = (await store.get(id)) ?? sources.fromEnv[name];
    if (value === undefined) {
      if (required(name)) {
        problems.push(`  ${name}: required: put it in ${storeFile(settings.dir, id)} (docs/secrets.md)`);
      }
      continue;
    }
    const checked = authEnv.shape[name].safeParse(value);
    if (checked.success) values[name] = checked.data;
    else problems.push(`  ${name} (secret ${id}): ${checked.error.issues.map((i) => i.message).join('; ')}`);
  }
  return { values, problems };
}
