import fs from 'node:fs';
import { createPoolFromEnv } from '../db/pool';
import { createQueueStore } from '../queue/create-queue-store';
import { openModels } from '../routing/open-models';
import { createSecretStore } from '../secrets/store';
import { temporalSettings } from '../temporal/config';
import { connectClient, ensureSearchAttributes } from '../temporal/connection';
import { startTracing } from '../telemetry/tracing';
import type { ApiConfig } from './api-config';
import { openAll } from './closers';
import { openProcessHub } from './process-hub';

/** What the ingest API alone runs on, opened from its parsed config; `close()` closes all of it. */
export function openResources(config: ApiConfig, warn: (line: string) => void = console.warn) {
  const { api } = config;
  return openAll(async (closers) => {
    // Before the Temporal client: its interceptor hands each request's trace on to the job workflow it starts.
    closers.add(startTracing({ serviceName: 'keel-api', env: config.telemetry }), (t) => t.shutdown());
    const pool = closers.add(createPoolFromEnv(api), (p) => p.end());
    const queue = closers.add(
      await createQueueStore({ redisUrl: api.REDIS_URL, instanceId: api.KEEL_INSTANCE_ID }),
      (q) => q.close(),
    );
    const temporal = closers.add(
      await connectClient(temporalSettings(api, api.TEMPORAL_ADDRESS!, (p) => fs.readFileSync(p))),
      (t) => t.close(),
    );
    const warning = await ensureSearchAttributes(temporal.client, api.TEMPORAL_NAMESPACE);
    if (warning) warn(`warning: ${warning}`);
    // The API lists the catalog (GET /v1/models) but never calls a model; workers serve the demo model.
    const secrets = createSecretStore(config.secrets);
    const models = closers.add(await openModels(config.models, queue, { serveDemo: false, secrets }), (m) => m.close());
    const kb = await openProcessHub(
      closers,
      {
        config: config.kb,
        pool,
        schema: api.POSTGRES_SCHEMA,
        dataDir: api.DATA_DIR,
        postgresSsl: api.POSTGRES_SSL,
      },
      warn,
    );
    return { pool, queue, temporal: temporal.client, models: models.router, kb, secrets };
  });
}
