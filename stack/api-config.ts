import { apiEnv, type ApiEnv } from '../api/config';
import { chatAppInbound } from '../chat-relay/config';
import { configError, parseSlices, setWhenAlone } from '../config/parse-env';
import { kbSettings, type KbEnv } from '../kb/config';
import { modelEnv, type ModelsConfig } from '../routing/config';
import { modelsSlice } from './models-slice';

/** The ingest API alone (production): its own variables, the knowledge hub's and the model catalog's. */
export interface ApiConfig {
  api: ApiEnv;
  kb: KbEnv;
  models: ModelsConfig;
}

/** Parses every variable the API uses, once, before anything opens; every bad one of every slice in one message. */
export async function loadConfig(env: NodeJS.ProcessEnv): Promise<ApiConfig> {
  const { values, problems } = parseSlices(
    {
      api: apiEnv,
      alone: setWhenAlone(['POSTGRES_DSN', 'TEMPORAL_ADDRESS'], 'API'),
      models: modelEnv,
      kb: kbSettings,
      chat: chatAppInbound,
    },
    env,
  );
  const models = await modelsSlice(values.models, env, problems);
  if (problems.length > 0 || !values.api || !values.kb || !models) throw configError('keel api', problems);
  return { api: values.api, kb: values.kb, models };
}
