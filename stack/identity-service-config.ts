import {
  identityEnvWithoutSecrets,
  identitySecretsConfig,
  readIdentitySecrets,
  type IdentityEnvWithoutSecrets,
  type IdentitySecretSources,
} from '../auth/secret-settings';
import type { AuthEnv } from '../auth/config';
import { configError, parseSlices } from '../config/parse-env';
import { secretsConfig, type SecretsSettings } from '../secrets/config';
import { createSecretStore } from '../secrets/store';

/**
 * The identity service alone (production): the spec's variables, every required one set, and where its secrets are
 * (the store; docs/secrets.md). The secret values themselves are read at start by `withSecrets`.
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

/** The service's full settings: the parsed config with its secrets read from the store, or every problem at once. */
export async function withSecrets(config: IdentityConfig): Promise<AuthEnv> {
  const store = createSecretStore(config.secrets);
  const { values, problems } = await readIdentitySecrets(config.identitySecrets, store, config.secrets);
  if (config.identity.INGEST_URL && !values.INTERNAL_API_TOKEN && problems.length === 0) {
    problems.push(
      `  INGEST_URL: needs INTERNAL_API_TOKEN, the token the ingest API knows as IDENTITY_INTERNAL_TOKEN: put it in ${store.where(config.identitySecrets.ids.INTERNAL_API_TOKEN)}`,
    );
  }
  if (problems.length > 0) throw configError('keel auth', problems);
  // Both required ones are present once there is no problem.
  return { ...config.identity, ...values } as AuthEnv;
}
