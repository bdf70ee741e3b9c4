import { setWhenAlone } from '../config/parse-env';
import { connectorsConfig, type ConnectorsConfig } from '../connectors/settings';
import { kbSettings, type KbEnv } from '../kb/config';
import { productsConfig } from '../products/config';
import type { ProductSettings } from '../products/settings';
import { modelEnv, type ModelsConfig } from '../routing/config';
import { workerEnv, type WorkerEnv } from '../temporal/worker-config';
import { secretsConfig, type SecretsSettings } from '../secrets/config';
import { telemetryEnv, type TelemetryEnv } from '../telemetry/config';
import { loadSlicesWithModels } from './models-slice';

/** A worker alone (production): its own variables, the knowledge hub's, the connectors', the models' and the secrets store's. */
export interface WorkerConfig {
  worker: WorkerEnv;
  kb: KbEnv;
  connectors: ConnectorsConfig;
  models: ModelsConfig;
  products: ProductSettings;
  secrets: SecretsSettings;
  telemetry: TelemetryEnv;
}

/** Parses every variable the worker uses, once, before anything opens; every bad one of every slice in one message. */
export async function loadConfig(env: NodeJS.ProcessEnv): Promise<WorkerConfig> {
  const { worker, kb, connectors, models, products, secrets, telemetry } = await loadSlicesWithModels(
    'keel worker',
    {
      worker: workerEnv,
      alone: setWhenAlone(['POSTGRES_DSN', 'TEMPORAL_ADDRESS'], 'worker'),
      models: modelEnv,
      kb: kbSettings,
      connectors: connectorsConfig,
      products: productsConfig,
      secrets: secretsConfig,
      telemetry: telemetryEnv,
    },
    env,
  );
  return { worker, kb, connectors, models, products, secrets, telemetry };
}
