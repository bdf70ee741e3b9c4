import { apiEnv, type ApiEnv } from '../api/config';
import { apiSecretSources, readApiSecrets } from '../api/start-secrets';
import { chatAppInbound } from '../chat-relay/config';
import { configError, setWhenAlone } from '../config/parse-env';
import type { ConfigWarning } from '../secrets/env-or-store';
import { createSecretStore } from '../secrets/store';
import { kbSettings, type KbEnv } from '../kb/config';
import { modelEnv, type ModelsConfig } from '../routing/config';
import { secretsConfig, type SecretsSettings } from '../secrets/config';
import { telemetryEnv, type TelemetryEnv } from '../telemetry/config';
import { loadSlicesWithModels } from './models-slice';

/** The ingest API alone (production): its own variables, the knowledge hub's and the model catalog's. */
export interface ApiConfig {
  api: ApiEnv;
  kb: KbEnv;
  models: ModelsConfig;
  secrets: SecretsSettings;
  telemetry: TelemetryEnv;
  /** What the start should warn about once the API has its logger (a secret read from the environment, …). */
  warnings: ConfigWarning[];
}

/**
 * Parses every variable the API uses, once, before anything opens; every bad one of every slice in one message. Then
 * reads the deployment secrets it holds at start (IDENTITY_INTERNAL_TOKEN: the variable, else the store).
 */
export async function loadConfig(env: NodeJS.ProcessEnv): Promise<ApiConfig> {
  const { api, kb, models, secrets, telemetry, apiSecrets } = await loadSlicesWithModels(
    'keel api',
    {
      api: apiEnv,
      alone: setWhenAlone(['POSTGRES_DSN', 'TEMPORAL_ADDRESS'], 'API'),
      models: modelEnv,
      kb: kbSettings,
      chat: chatAppInbound,
      secrets: secretsConfig,
      apiSecrets: apiSecretSources,
      telemetry: telemetryEnv,
    },
    env,
  );
  const { internalToken, problems, warnings } = await readApiSecrets(apiSecrets, api, createSecretStore(secrets));
  if (problems.length > 0) throw configError('keel api', problems);
  return { api: { ...api, IDENTITY_INTERNAL_TOKEN: internalToken }, kb, models, secrets, telemetry, warnings };
}
