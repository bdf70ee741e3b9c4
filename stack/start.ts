import fs from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { buildApp } from '../api/app';
import { apiDepsFromEnv } from '../api/deps';
import { chatAppRoutes } from '../chat/routes';
import { chatWebApiFromEnv } from '../chat-relay/chat-app';
import { workspaceRoot } from '../config/workspace-root';
import { createToken } from '../db/tokens';
import { DEMO_MODEL_DISPLAY_NAME } from '../routing/demo-model/respond';
import { setSdkMetricsUrl } from '../metrics/registry';
import { jobTaskQueue } from '../temporal/config';
import { installSdkMetrics } from '../temporal/sdk-metrics';
import { startKeelWorker } from '../temporal/worker';
import { startTracing } from '../telemetry/tracing';
import { createClosers } from './closers';
import { loadConfig } from './config';
import { startStackConsole } from './console';
import { ensureFirstAdmin, type FirstAdmin } from './first-admin';
import { startIdentityService } from './identity';
import { openResources } from './resources';
import { devTokenPath, readDevToken, stackStatePath, type StackState } from './state-file';
import { runWithoutDatabase } from './without-database';

/**
 * `npm start` over `env`: every variable is parsed first (a bad one stops here, before anything starts or DATA_DIR is
 * created), then resources open from the parsed config, then the worker, identity and the API start. Resolves when
 * the worker stops (Ctrl-C).
 */
export async function startStack(env: NodeJS.ProcessEnv, say: (line: string) => void): Promise<void> {
  const config = await loadConfig(env);
  const { stack } = config;
  const dataDir = path.resolve(stack.DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true });
  if (!stack.POSTGRES_DSN && stack.KEEL_EMBEDDED_DB === 'off') return runWithoutDatabase(stack, dataDir);

  setSdkMetricsUrl(await installSdkMetrics());
  // Before the Temporal client and the worker, which trace through it.
  const tracing = startTracing({ serviceName: 'keel', env: config.telemetry });
  const resources = await openResources(config, dataDir, say);
  // Closed in reverse order of opening, on Ctrl-C or on a failed start.
  const closers = createClosers();
  closers.push(() => tracing.shutdown());
  closers.push(() => resources.close());
  try {
    const { pool, queue, models, kb, devServer, embedded, temporalAddress } = resources;
    say('starting the worker…');
    const worker = await startKeelWorker({
      connection: resources.workerConnection,
      namespace: stack.TEMPORAL_NAMESPACE,
      taskQueue: jobTaskQueue(stack),
      deps: {
        pool,
        queue,
        models: models.router,
        workspaceRoot: workspaceRoot(stack),
        kb,
        chat: chatWebApiFromEnv(stack),
        connectors: config.connectors,
        products: config.products,
      },
      workflowBundlePath: stack.WORKFLOW_BUNDLE_PATH,
      shutdownGraceTime: stack.WORKER_SHUTDOWN_GRACE,
      tracing,
    });
    closers.push(() => worker.stop());

    const logLevel = stack.LOG_LEVEL === 'info' ? 'warn' : stack.LOG_LEVEL;
    const identity = await startIdentityService({
      config: config.identity,
      dataDir,
      pool,
      databaseUrl: resources.databaseUrl,
      instanceId: stack.KEEL_INSTANCE_ID,
      logLevel,
    });
    closers.push(() => identity.close());
    const firstAdmin = await ensureFirstAdmin({
      pool: identity.pool,
      tables: identity.tables,
      dataDir,
      email: stack.CONSOLE_ADMIN_EMAIL,
      defaultBudgetCents: identity.defaultBudgetCents,
    });

    const deps = apiDepsFromEnv(stack, { pool, queue, temporal: resources.temporal.client, models: models.router, kb });
    // Submissions are refused with 402 over budget when identity shares this database.
    const app = await buildApp(
      deps,
      { logger: { level: logLevel } },
      { budget: identity.budgetGate, routes: [chatAppRoutes(deps)] },
    );
    closers.push(() => app.close());
    const apiUrl = await app.listen({ host: stack.API_HOST, port: stack.API_PORT });

    const token = await seedDevToken(pool, dataDir, stack.KEEL_DEV_TOKEN);
    const webConsole = await startStackConsole({
      config: config.console,
      dataDir,
      pool,
      identity,
      apiUrl,
      temporalUiUrl: devServer?.uiUrl,
      logLevel,
    });
    closers.push(() => webConsole.close());
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
    say(`  Console      ${webConsole.url}   ${signInHint(firstAdmin)}`);
    say(`  API          ${apiUrl}`);
    say(
      `  Temporal UI  ${devServer ? `${devServer.uiUrl}   (jobs only: ${jobsListUrl(devServer.uiUrl, stack.TEMPORAL_NAMESPACE)})` : `(external Temporal at ${temporalAddress})`}`,
    );
    say(`  API token    ${token}   (admin user "dev"; also in ${devTokenPath(dataDir)})`);
    say(`  Identity     ${identity.url}   (seed a user: npx keel auth create-user --email E --password-stdin)`);
    say(`  PostgreSQL   ${embedded ? `embedded PGlite at ${embedded.dsn}` : 'POSTGRES_DSN'}`);
    say(`  Queue store  ${stack.REDIS_URL ? 'Redis (REDIS_URL)' : 'in-process'}`);
    say(`  Knowledge    hub ${kb.hubDir}${kb.unavailable ? ' (disabled, see the warning above)' : ''}`);
    say(
      `  Models       ${models.configured.length > 0 ? `keys for ${models.configured.join(', ')}` : `no provider key set: the ${DEMO_MODEL_DISPLAY_NAME} answers`} (catalog ${models.paths.catalog})`,
    );
    say('');
    say('Try:  npx keel job "Write hello.md that greets the reader"');
    say('Stop: Ctrl-C');

    const stop = () => {
      say('\nstopping Keel…');
      void closers.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await worker.done;
  } catch (err) {
    await closers.close();
    throw err;
  }
}

/** How to sign in to the console: the first admin's password is printed only on the start that created it. */
function signInHint(admin: FirstAdmin): string {
  if (admin.kind === 'created') return `(sign in as ${admin.email}, password ${admin.password}; kept in ${admin.file})`;
  if (admin.kind === 'kept') return `(sign in as ${admin.email}; password in ${admin.file})`;
  return '(sign in with an identity account; add one: npx keel auth create-user --email E --password-stdin --approved)';
}

/** KEEL_DEV_TOKEN when set; otherwise the token kept in DATA_DIR/dev-token, generated on first start. */
async function seedDevToken(pool: Pool, dataDir: string, configured?: string): Promise<string> {
  const token = configured ?? readDevToken(dataDir);
  const seeded = await createToken(pool, { userId: 'dev', orgId: 'dev', isAdmin: true, label: 'dev token', token });
  if (!configured) fs.writeFileSync(devTokenPath(dataDir), `${seeded.token}\n`, { mode: 0o600 });
  return seeded.token;
}

/** The Temporal UI's workflow list filtered to jobs (children, connector runs and relays hidden). */
function jobsListUrl(uiUrl: string, namespace: string): string {
  return `${uiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows?query=${encodeURIComponent('KeelKind = "job"')}`;
}
