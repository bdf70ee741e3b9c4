// Entry point: a worker alone (production). `npm start` runs one inside the all-in-one stack instead.
import fs from 'node:fs';
import { workspaceRoot } from '../config/workspace-root';
import { chatWebApiFromEnv } from '../chat-relay/chat-app';
import { createPoolFromEnv } from '../db/pool';
import { openHubFromEnv } from '../kb/open-from-env';
import { createQueueStore } from '../queue/create-queue-store';
import { openModels } from '../routing/open-models';
import { loadConnectorsConfig } from '../connectors/config';
import { jobTaskQueue, temporalSettings } from '../temporal/config';
import { connectClient, connectWorker, ensureSearchAttributes } from '../temporal/connection';
import { ensureConnectorSchedules } from '../temporal/connector-schedules';
import { startKeelWorker } from '../temporal/worker';
import { loadWorkerConfig } from '../temporal/worker-config';

async function main(): Promise<void> {
  const env = loadWorkerConfig();
  // Parsed before anything starts, so a bad connector variable stops the worker with its name.
  const connectors = loadConnectorsConfig(process.env, 'keel worker');
  const pool = createPoolFromEnv(env);
  const queue = await createQueueStore({ redisUrl: env.REDIS_URL, instanceId: env.KEEL_INSTANCE_ID });
  const models = await openModels(env, process.env, queue, { serveDemo: true });
  // kb_search reads the knowledge hub; a hub that cannot serve only makes the tool say so.
  const kb = await openHubFromEnv({
    env: process.env,
    processName: 'keel worker',
    pool,
    schema: env.POSTGRES_SCHEMA,
    dataDir: env.DATA_DIR,
    postgresSsl: env.POSTGRES_SSL,
  });
  if (kb.warning) console.warn(`warning: ${kb.warning}`);
  const settings = temporalSettings(env, env.TEMPORAL_ADDRESS!, (p) => fs.readFileSync(p));
  // Workflows upsert KeelStatus, so the attributes must exist before the first job runs here.
  const registrar = await connectClient(settings);
  const warning = await ensureSearchAttributes(registrar.client, env.TEMPORAL_NAMESPACE)
    .then(async (result) => {
      // One schedule per connector, created or updated from this worker's configuration (paused when disabled).
      await ensureConnectorSchedules(registrar.client, { taskQueue: jobTaskQueue(env), config: connectors });
      return result;
    })
    .finally(() => registrar.close());
  if (warning) console.warn(`warning: ${warning}`);
  const connection = await connectWorker(settings);
  try {
    const worker = await startKeelWorker({
      connection,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: jobTaskQueue(env),
      deps: {
        pool,
        queue,
        models: models.router,
        workspaceRoot: workspaceRoot(env),
        chat: chatWebApiFromEnv(env),
        kb: kb.hub,
        connectorEnv: process.env,
      },
      workflowBundlePath: env.WORKFLOW_BUNDLE_PATH,
      shutdownGraceTime: env.WORKER_SHUTDOWN_GRACE,
    });
    process.once('SIGINT', () => void worker.stop());
    process.once('SIGTERM', () => void worker.stop());
    await worker.done;
  } finally {
    await connection.close();
    await models.close();
    await queue.close();
    await kb.hub.close();
    await pool.end();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
