// Entry point: the ingest API alone (production). `npm start` runs it inside the all-in-one stack instead.
import fs from 'node:fs';
import { createPoolFromEnv } from '../db/pool';
import { openHubFromEnv } from '../kb/open-from-env';
import { createQueueStore } from '../queue/create-queue-store';
import { openModels } from '../routing/open-models';
import { temporalSettings } from '../temporal/config';
import { connectClient, ensureSearchAttributes } from '../temporal/connection';
import { identityTables, ingestTables } from '../db/qualified-tables';
import { buildApp } from '../api/app';
import { chatAppRoutes } from '../chat/routes';
import { loadApiConfig } from '../api/config';
import { apiDepsFromEnv } from '../api/deps';

async function main(): Promise<void> {
  const env = loadApiConfig();
  const pool = createPoolFromEnv(env);
  const queue = await createQueueStore({ redisUrl: env.REDIS_URL, instanceId: env.KEEL_INSTANCE_ID });
  const temporal = await connectClient(temporalSettings(env, env.TEMPORAL_ADDRESS!, (p) => fs.readFileSync(p)));
  const warning = await ensureSearchAttributes(temporal.client, env.TEMPORAL_NAMESPACE);
  if (warning) console.warn(`warning: ${warning}`);
  // The API lists the catalog (GET /v1/models) but never calls a model; workers serve the demo model.
  const models = await openModels(env, process.env, queue, { serveDemo: false });
  const kb = await openHubFromEnv({
    env: process.env,
    processName: 'keel api',
    pool,
    schema: env.POSTGRES_SCHEMA,
    dataDir: env.DATA_DIR,
    postgresSsl: env.POSTGRES_SSL,
  });
  if (kb.warning) console.warn(`warning: ${kb.warning}`);
  const deps = apiDepsFromEnv(env, { pool, queue, temporal: temporal.client, models: models.router, kb: kb.hub });
  const app = await buildApp(
    deps,
    {
      logger: { level: env.LOG_LEVEL },
    },
    {
      routes: [chatAppRoutes(deps)],
      budget: env.IDENTITY_SCHEMA
        ? {
            pool,
            lookup: {
              identity: identityTables(env.IDENTITY_SCHEMA),
              ledger: ingestTables(env.POSTGRES_SCHEMA),
              defaultBudgetCents: Math.round(env.DEFAULT_BUDGET_USD * 100),
            },
          }
        : undefined,
    },
  );
  await app.listen({ host: env.API_HOST, port: env.API_PORT });

  const shutdown = async () => {
    await app.close();
    await temporal.close();
    await queue.close();
    await kb.hub.close();
    await pool.end();
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
