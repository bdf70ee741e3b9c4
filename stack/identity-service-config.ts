import {
  identityEnvWithoutSecrets,
  identitySecretsConfig,
  providerProblems,
  readIdentitySecrets,
  whereToSet,
  type IdentityEnvWithoutSecrets,
  type IdentitySecretSources,
} from '../auth/secret-settings';
import type { AuthSettings } from '../auth/config';
import type { ConfigWarning } from '../secrets/env-or-store';
import { configError, parseSlices } from '../config/parse-env';
import { secretsConfig, type SecretsSettings } from '../secrets/config';
import { createSecretStore } from '../secrets/store';

/**
 * The identity service alone (production): the spec's variables, every required one set, and where its secrets may
 * come from (their variables or the store; docs/secrets.md). The secret values themselves are read at start by
 * `withSecrets`.
 */
export interface IdentityConfig {
  identity: IdentityEnvWithoutSecrets;
  secrets: SecretsSettings;
  identitySecrets: IdentitySecretSources;
}

/** Parses every variable the identity service uses, once, before anything opens; every bad one in one message. */
export function loadConfig(env: NodeJS.ProcessEnv): IdentityConfig {
  const { values, problems } = parseSlices(
    { identity: identityEnvWithoutSecrets, secrets: secretsConfig, identitySecrets: identitySecretsConfig },
    env,
  );
  if (problems.length > 0 || !values.identity || !values.secrets || !values.identitySecrets) {
    throw configError('keel auth', problems);
  }
  return { identity: values.identity, secrets: values.secrets, identitySecrets: values.identitySecrets };
}

/**
 * The service's full settings: the parsed config with its secrets read (variable, else store), or every problem at
 * once; and the warnings to log once the service has its logger (a secret from the environment, a redundant option).
 */
export async function withSecrets(config: IdentityConfig): Promise<{ env: AuthSettings; warnings: ConfigWarning[] }> {
  const store = createSecretStore(config.secrets);
  const { values, problems, warnings } = await readIdentitySecrets(config.identitySecrets, store);
  problems.push(...providerProblems({ ...config.identity, ...values }, config.identitySecrets, store));
  if (config.identity.INGEST_URL && !values.INTERNAL_API_TOKEN && problems.length === 0) {
    problems.push(
      `  INGEST_URL: needs INTERNAL_API_TOKEN, the token the ingest API knows as IDENTITY_INTERNAL_TOKEN: ${whereToSet(config.identitySecrets.sources.INTERNAL_API_TOKEN, store)}`,
    );
  }
  if (problems.length > 0) throw configError('keel auth', problems);
  // AUTHLIB_SECRET is present once there is no problem, and the provider's three are all set or none.
  return { env: { ...config.identity, ...values } as AuthSettings, warnings };
}
