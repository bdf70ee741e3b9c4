import { apiEnv, type ApiEnv } from '../api/config';
import { chatAppInbound } from '../chat-relay/config';
import { setWhenAlone } from '../config/parse-env';
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
}

/** Parses every variable the API uses, once, before anything opens; every bad one of every slice in one message. */
export async function loadConfig(env: NodeJS.ProcessEnv): Promise<ApiConfig> {
  const { api, kb, models, secrets, telemetry } = await loadSlicesWithModels(
    'keel api',
    {
      api: apiEnv,
      alone: setWhenAlone(['POSTGRES_DSN', 'TEMPORAL_ADDRESS'], 'API'),
      models: modelEnv,
      kb: kbSettings,
      chat: chatAppInbound,
      secrets: secretsConfig,
      telemetry: telemetryEnv,
    },
    env,
  );
  return { api, kb, models, secrets, telemetry };
}
