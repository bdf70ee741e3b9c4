import fs from 'node:fs';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { createQueueStore } from '../queue/create-queue-store';
import { openModels } from '../routing/open-models';
import { createSecretStore } from '../secrets/store';
import { findTemporalCli } from '../temporal/cli-path';
import { jobTaskQueue, temporalSettings } from '../temporal/config';
import { connectClient, connectWorker, ensureSearchAttributes } from '../temporal/connection';
import { ensureConnectorSchedules } from '../temporal/connector-schedules';
import { ensureBlobGcSchedule } from '../temporal/blob-gc-schedule';
import { blobGcSettings } from '../snapshots/config';
import { startDevServer, type DevServer } from '../temporal/dev-server';
import { openAll } from './closers';
import { openProcessHub } from './process-hub';
import type { StartConfig } from './config';

/**
 * What `npm start` runs on, opened from its parsed config, embedded wherever nothing is configured: the Temporal dev
 * server, PGlite (migrated), the knowledge hub, the queue store, the models (serving the offline demo model), a
 * Temporal client (search attributes and connector schedules in place) and a worker connection. `close()` closes it all.
 */
export function openResources(config: StartConfig, dataDir: string, say: (line: string) => void) {
  const { stack: env } = config;
  return openAll(async (closers) => {
    let devServer: DevServer | undefined;
    if (!env.TEMPORAL_ADDRESS) {
      const cliPath = findTemporalCli(env.TEMPORAL_CLI_PATH);
      if (!cliPath)
        throw new Error('no Temporal CLI found: run `npm run setup`, set TEMPORAL_CLI_PATH, or set TEMPORAL_ADDRESS');
      say('starting the Temporal dev server…');
      devServer = closers.add(
        await startDevServer({
          cliPath,
          dataDir,
          port: env.TEMPORAL_DEV_PORT,
          uiPort: env.TEMPORAL_UI_PORT,
          namespace: env.TEMPORAL_NAMESPACE,
        }),
        (server) => server.stop(),
      );
    }
    const temporalAddress = env.TEMPORAL_ADDRESS ?? devServer!.address;

    let embedded: EmbeddedPostgres | undefined;
    if (!env.POSTGRES_DSN) {
      say('starting the embedded PostgreSQL (PGlite)…');
      embedded = closers.add(
        await startEmbeddedPostgres({
          dataDir: path.join(dataDir, 'pglite'),
          port: env.EMBEDDED_POSTGRES_PORT,
          schema: env.POSTGRES_SCHEMA,
        }),
        (db) => db.close(),
      );
    }
    const databaseUrl = env.POSTGRES_DSN ?? embedded!.dsn;
    // PGlite serves one connection: every component shares this pool of one, so transactions never interleave.
    const pool = closers.add(
      createPool({
        dsn: databaseUrl,
        max: embedded ? 1 : env.POSTGRES_POOL_MAX,
        ssl: embedded ? false : env.POSTGRES_SSL,
        schema: env.POSTGRES_SCHEMA,
        statementTimeoutMs: env.POSTGRES_STATEMENT_TIMEOUT_MS,
      }),
      (p) => p.end(),
    );
    await migrate(pool, env.POSTGRES_SCHEMA);
    const kb = await openProcessHub(
      closers,
      {
        config: config.kb,
        pool,
        schema: env.POSTGRES_SCHEMA,
        dataDir,
        postgresSsl: env.POSTGRES_SSL,
      },
      say,
    );

    const queue = closers.add(
      await createQueueStore({ redisUrl: env.REDIS_URL, instanceId: env.KEEL_INSTANCE_ID }),
      (q) => q.close(),
    );
    const secrets = createSecretStore(config.secrets);
    const models = closers.add(await openModels(config.models, queue, { serveDemo: true, secrets }), (m) => m.close());

    const settings = temporalSettings(env, temporalAddress, (p) => fs.readFileSync(p));
    const temporal = closers.add(await connectClient(settings), (t) => t.close());
    const warning = await ensureSearchAttributes(temporal.client, env.TEMPORAL_NAMESPACE);
    if (warning) say(`warning: ${warning}`);
    // One schedule per connector (paused unless CONNECTOR_<NAME>_ENABLED=true); the worker runs them.
    await ensureConnectorSchedules(temporal.client, {
      taskQueue: jobTaskQueue(env),
      config: config.connectors.shared,
      retry: { say },
    });
    // The workspace blob collection (docs/workspace-snapshots.md), paused when WORKSPACE_GC_ENABLED=false.
    await ensureBlobGcSchedule(temporal.client, {
      taskQueue: jobTaskQueue(env),
      settings: blobGcSettings(env),
      retry: { say },
    });
    const workerConnection = closers.add(await connectWorker(settings), (c) => c.close());
    return {
      devServer,
      temporalAddress,
      embedded,
      databaseUrl,
      pool,
      kb,
      queue,
      models,
      secrets,
      temporal,
      workerConnection,
    };
  });
}
