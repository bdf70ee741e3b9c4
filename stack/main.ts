// `npm start`: the whole of Keel in one process tree, on embedded defaults for whatever is not configured:
// the Temporal dev server (+ UI), PostgreSQL (PGlite), the in-process queue store and the offline demo model.
import fs from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { buildApp } from '../api/app';
import { chatAppRoutes } from '../chat/routes';
import { chatWebApiFromEnv } from '../chat-relay/chat-app';
import { apiDepsFromEnv } from '../api/deps';
import { workspaceRoot } from '../config/workspace-root';
import { startIdentityService } from './identity';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../db/embedded';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { createToken } from '../db/tokens';
import { openHubFromEnv } from '../kb/open-from-env';
import { createQueueStore } from '../queue/create-queue-store';
import { DEMO_MODEL_DISPLAY_NAME } from '../routing/demo-model/respond';
import { openModels } from '../routing/open-models';
import { findTemporalCli } from '../temporal/cli-path';
import { jobTaskQueue, temporalSettings } from '../temporal/config';
import { connectClient, connectWorker, ensureSearchAttributes } from '../temporal/connection';
import { ensureConnectorSchedules } from '../temporal/connector-schedules';
import { loadConnectorsConfig } from '../connectors/config';
import { startDevServer, type DevServer } from '../temporal/dev-server';
import { startKeelWorker } from '../temporal/worker';
import { loadStackConfig } from './config';
import { runWithoutDatabase } from './without-database';
import { devTokenPath, readDevToken, stackStatePath, type StackState } from './state-file';

type Closer = () => Promise<unknown>;

async function main(): Promise<void> {
  const env = loadStackConfig();
  const dataDir = path.resolve(env.DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true });
  // Closed in reverse order of opening, on Ctrl-C or on a failed start.
  const closers: Closer[] = [];
  const shutdown = async () => {
    for (const close of closers.reverse()) await close().catch((err: unknown) => console.error(String(err)));
  };

  if (!env.POSTGRES_DSN && env.KEEL_EMBEDDED_DB === 'off') return runWithoutDatabase(env, dataDir);
  try {
    let devServer: DevServer | undefined;
    if (!env.TEMPORAL_ADDRESS) {
      const cliPath = findTemporalCli(env.TEMPORAL_CLI_PATH);
      if (!cliPath)
        throw new Error('no Temporal CLI found: run `npm run setup`, set TEMPORAL_CLI_PATH, or set TEMPORAL_ADDRESS');
      say('starting the Temporal dev server…');
      devServer = await startDevServer({
        cliPath,
        dataDir,
        port: env.TEMPORAL_DEV_PORT,
        uiPort: env.TEMPORAL_UI_PORT,
        namespace: env.TEMPORAL_NAMESPACE,
      });
      closers.push(() => devServer!.stop());
    }
    const temporalAddress = env.TEMPORAL_ADDRESS ?? devServer!.address;

    let embedded: EmbeddedPostgres | undefined;
    if (!env.POSTGRES_DSN) {
      say('starting the embedded PostgreSQL (PGlite)…');
      embedded = await startEmbeddedPostgres({
        dataDir: path.join(dataDir, 'pglite'),
        port: env.EMBEDDED_POSTGRES_PORT,
        schema: env.POSTGRES_SCHEMA,
      });
      closers.push(() => embedded!.close());
    }
    // PGlite serves one connection: every component shares this pool of one, so transactions never interleave.
    const pool = createPool({
      dsn: env.POSTGRES_DSN ?? embedded!.dsn,
      max: embedded ? 1 : env.POSTGRES_POOL_MAX,
      ssl: embedded ? false : env.POSTGRES_SSL,
      schema: env.POSTGRES_SCHEMA,
    });
    closers.push(() => pool.end());
    await migrate(pool, env.POSTGRES_SCHEMA);
    const kb = await openHubFromEnv({
      env: process.env,
      processName: 'keel start',
      pool,
      schema: env.POSTGRES_SCHEMA,
      dataDir,
      postgresSsl: env.POSTGRES_SSL,
    });
    closers.push(() => kb.hub.close());
    if (kb.warning) say(`warning: ${kb.warning}`);

    const queue = await createQueueStore({ redisUrl: env.REDIS_URL, instanceId: env.KEEL_INSTANCE_ID });
    closers.push(() => queue.close());
    const models = await openModels(env, process.env, queue, { serveDemo: true });
    closers.push(() => models.close());

    const settings = temporalSettings(env, temporalAddress, (p) => fs.readFileSync(p));
    const temporal = await connectClient(settings);
    closers.push(() => temporal.close());
    const warning = await ensureSearchAttributes(temporal.client, env.TEMPORAL_NAMESPACE);
    if (warning) say(`warning: ${warning}`);
    // One schedule per connector (paused unless CONNECTOR_<NAME>_ENABLED=true); the worker below runs them.
    await ensureConnectorSchedules(temporal.client, {
      taskQueue: jobTaskQueue(env),
      config: loadConnectorsConfig(process.env, 'keel start'),
    });

    const taskQueue = jobTaskQueue(env);
    const workspaces = workspaceRoot(env);
    say('starting the worker…');
    const connection = await connectWorker(settings);
    closers.push(() => connection.close());
    const worker = await startKeelWorker({
      connection,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue,
      deps: {
        pool,
        queue,
        models: models.router,
        workspaceRoot: workspaces,
        kb: kb.hub,
        chat: chatWebApiFromEnv(env),
        connectorEnv: process.env,
      },
      workflowBundlePath: env.WORKFLOW_BUNDLE_PATH,
      shutdownGraceTime: env.WORKER_SHUTDOWN_GRACE,
    });
    closers.push(() => worker.stop());

    const identity = await startIdentityService({
      env: process.env,
      dataDir,
      pool,
      databaseUrl: env.POSTGRES_DSN ?? embedded!.dsn,
      ingestSchema: env.POSTGRES_SCHEMA,
      redisUrl: env.REDIS_URL,
      instanceId: env.KEEL_INSTANCE_ID,
      logLevel: env.LOG_LEVEL === 'info' ? 'warn' : env.LOG_LEVEL,
    });
    closers.push(() => identity.close());

    const deps = apiDepsFromEnv(env, { pool, queue, temporal: temporal.client, models: models.router, kb: kb.hub });
    const app = await buildApp(
      deps,
      {
        logger: { level: env.LOG_LEVEL === 'info' ? 'warn' : env.LOG_LEVEL },
      },
      // Submissions are refused with 402 over budget when identity shares this database.
      { budget: identity.budgetGate, routes: [chatAppRoutes(deps)] },
    );
    closers.push(() => app.close());
    const apiUrl = await app.listen({ host: env.API_HOST, port: env.API_PORT });

    const token = await seedDevToken(pool, dataDir, env.KEEL_DEV_TOKEN);
    const state: StackState = {
      pid: process.pid,
      api_url: apiUrl,
      temporal_ui_url: devServer?.uiUrl,
      temporal_address: temporalAddress,
      embedded_postgres_dsn: embedded?.dsn,
    };
    fs.writeFileSync(stackStatePath(dataDir), JSON.stringify(state, null, 2));
    closers.push(async () => fs.rmSync(stackStatePath(dataDir), { force: true }));

    say('');
    say('Keel is running.');
    say(`  API          ${apiUrl}`);
    say(`  Temporal UI  ${devServer ? devServer.uiUrl : `(external Temporal at ${temporalAddress})`}`);
    say(`  API token    ${token}   (admin user "dev"; also in ${devTokenPath(dataDir)})`);
    say(`  Identity     ${identity.url}   (seed a user: npx keel auth create-user --email E --password-stdin)`);
    say(`  PostgreSQL   ${embedded ? `embedded PGlite at ${embedded.dsn}` : 'POSTGRES_DSN'}`);
    say(`  Queue store  ${env.REDIS_URL ? 'Redis (REDIS_URL)' : 'in-process'}`);
    say(`  Knowledge    hub ${kb.hub.hubDir}${kb.hub.unavailable ? ' (disabled, see the warning above)' : ''}`);
    say(
      `  Models       ${models.configured.length > 0 ? `keys for ${models.configured.join(', ')}` : `no provider key set: the ${DEMO_MODEL_DISPLAY_NAME} answers`} (catalog ${models.paths.catalog})`,
    );
    say('');
    say('Try:  npx keel job "Write hello.md that greets the reader"');
    say('Stop: Ctrl-C');

    const stop = () => {
      say('\nstopping Keel…');
      void shutdown().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await worker.done;
  } catch (err) {
    await shutdown();
    throw err;
  }
}

/** KEEL_DEV_TOKEN when set; otherwise the token kept in DATA_DIR/dev-token, generated on first start. */
async function seedDevToken(pool: Pool, dataDir: string, configured?: string): Promise<string> {
  const token = configured ?? readDevToken(dataDir);
  const seeded = await createToken(pool, { userId: 'dev', orgId: 'dev', isAdmin: true, label: 'dev token', token });
  if (!configured) fs.writeFileSync(devTokenPath(dataDir), `${seeded.token}\n`, { mode: 0o600 });
  return seeded.token;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
