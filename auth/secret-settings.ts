import { z } from 'zod';
import type { SecretStore } from '../secrets/store';
import {
  envOrStoreSource,
  readEnvOrStore,
  redundantFromEnvWarning,
  type ConfigWarning,
  type EnvOrStoreSecret,
  type EnvOrStoreSource,
} from '../secrets/env-or-store';
import { authEnv, type AuthEnv } from './config';
import { idpAllOrNone, withDerivedIssuer } from './oidc-provider-config';

/**
 * The identity service's three credentials. Each may be its variable (the spec's name) or a file in the secrets store
 * (default id: the same name, another through its `*_SECRET_ID`); the variable wins when both are set, the store is
 * the recommended place (docs/secrets.md, "One rule"). They are read once at start: the session signer and the OIDC
 * client are built once, as the spec says of its environment.
 */
export const IDENTITY_SECRETS = {
  AUTHLIB_SECRET: { variable: 'AUTHLIB_SECRET', idVariable: 'AUTHLIB_SECRET_ID' },
  IDP_CLIENT_SECRET: { variable: 'IDP_CLIENT_SECRET', idVariable: 'IDP_CLIENT_SECRET_ID' },
  INTERNAL_API_TOKEN: { variable: 'INTERNAL_API_TOKEN', idVariable: 'INTERNAL_API_TOKEN_SECRET_ID' },
} as const satisfies Record<string, EnvOrStoreSecret>;
export type IdentitySecretName = keyof typeof IDENTITY_SECRETS;
const NAMES = Object.keys(IDENTITY_SECRETS) as IdentitySecretName[];

/** Where each secret may come from, and what parsing them found worth a warning. */
export interface IdentitySecretSources {
  sources: Record<IdentitySecretName, EnvOrStoreSource>;
  warnings: ConfigWarning[];
}

/**
 * The sources of the three secrets in `env`, a value set as a variable checked with the other variables (so one
 * start-up names every bad one). Shared by the identity service alone and `npm start`.
 */
export function secretSources(env: Record<string, unknown>, ctx: z.RefinementCtx): IdentitySecretSources {
  const sources = {} as Record<IdentitySecretName, EnvOrStoreSource>;
  for (const name of NAMES) {
    sources[name] = envOrStoreSource(env, IDENTITY_SECRETS[name], ctx);
    const fromEnv = sources[name].fromEnv;
    if (fromEnv === undefined) continue;
    const checked = authEnv.shape[name].safeParse(fromEnv);
    if (!checked.success) {
      ctx.addIssue({ code: 'custom', path: [name], message: checked.error.issues.map((i) => i.message).join('; ') });
    }
  }
  return { sources, warnings: redundantFromEnvWarning(env, NAMES) };
}

/** The identity service's secret slice of its config (see `secretSources`). */
export const identitySecretsConfig = z
  .custom<NodeJS.ProcessEnv>()
  .transform((env, ctx): IdentitySecretSources => secretSources(env, ctx));

/**
 * The identity settings without their secrets: what the rest of the environment holds, the issuer derived from IDP_ID
 * where it can be.
 */
export const identityEnvWithoutSecrets = z.preprocess(
  withDerivedIssuer,
  authEnv.omit({ AUTHLIB_SECRET: true, IDP_CLIENT_SECRET: true, INTERNAL_API_TOKEN: true }),
);
export type IdentityEnvWithoutSecrets = z.infer<typeof identityEnvWithoutSecrets>;

/** Where a secret may be set, for a line that tells an operator what to do (never its value). */
export function whereToSet(source: EnvOrStoreSource, store: SecretStore): string {
  return source.id === undefined
    ? `set ${source.variable}`
    : `set ${source.variable} or put it in ${store.where(source.id)} (recommended)`;
}

/**
 * Reads the three secrets at start by the rule (the variable wins, else the store) and checks each as its setting
 * requires. A missing required one, or one its rule refuses, is a problem line naming where it may be set; the value
 * never appears in a message.
 */
export async function readIdentitySecrets(
  sources: IdentitySecretSources,
  store: SecretStore,
  /** Alone only AUTHLIB_SECRET is; under `npm start` none is (the session secret is generated). */
  required: (name: IdentitySecretName) => boolean = (name) => name === 'AUTHLIB_SECRET',
): Promise<{ values: Partial<Pick<AuthEnv, IdentitySecretName>>; problems: string[]; warnings: ConfigWarning[] }> {
  const problems: string[] = [];
  const warnings = [...sources.warnings];
  const values: Partial<Record<IdentitySecretName, string>> = {};
  for (const name of NAMES) {
    const source = sources.sources[name];
    const read = await readEnvOrStore(source, store);
    warnings.push(...read.warnings);
    if (read.value === undefined) {
      if (required(name)) problems.push(`  ${name}: required: ${whereToSet(source, store)} (docs/secrets.md)`);
      continue;
    }
    const checked = authEnv.shape[name].safeParse(read.value);
    const origin = read.from === 'environment' ? 'variable' : `secret ${source.id}`;
    if (checked.success) values[name] = checked.data;
    else problems.push(`  ${name} (${origin}): ${checked.error.issues.map((i) => i.message).join('; ')}`);
  }
  return { values, problems, warnings };
}

/**
 * The provider's check once the client secret is read: its three settings together or none (password sign-in only),
 * one problem line per missing one, the client secret's saying where it may be set.
 */
export function providerProblems(
  settings: Record<string, unknown>,
  sources: IdentitySecretSources,
  store: SecretStore,
): string[] {
  const where = { IDP_CLIENT_SECRET: whereToSet(sources.sources.IDP_CLIENT_SECRET, store) };
  const checked = z
    .custom<Record<string, unknown>>()
    .superRefine((value, ctx) => idpAllOrNone(value, ctx, where))
    .safeParse(settings);
  return checked.success ? [] : checked.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
}
