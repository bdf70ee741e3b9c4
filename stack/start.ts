import { sharedDatabasePeople } from '../approvals/escalation-people';
import fs from 'node:fs';
import { webhookSettings } from '../webhooks/config';
import { mcpClientSettings } from '../mcp/config';
import { resolveAnswerLinks } from '../answer-links/config';
import path from 'node:path';
import type { Pool } from 'pg';
import { buildApp } from '../api/app';
import { apiDepsFromEnv } from '../api/deps';
import { chatAppRoutes } from '../chat/routes';
import { chatWebApiFromEnv } from '../chat-relay/chat-app';
import { workspaceRoot } from '../config/workspace-root';
import { blobStoreSettings } from '../snapshots/config';
import { openBlobStore } from '../snapshots/open-blob-store';
import { createToken } from '../db/tokens';
import { DEMO_MODEL_DISPLAY_NAME } from '../routing/demo-model/respond';
import { setSdkMetricsUrl } from '../metrics/registry';
import { jobTaskQueue } from '../temporal/config';
import { installSdkMetrics } from '../temporal/sdk-metrics';
import { startKeelWorker } from '../temporal/worker';
import { workerVersioning } from '../temporal/worker-config';
import { startTracing } from '../telemetry/tracing';
import { logConfigWarnings } from '../secrets/env-or-store';
import { createClosers } from './closers';
import { onStopSignals } from './entry-point';
import { loadConfig, type StartConfig } from './config';
import { startStackConsole } from './console';
import { ensureFirstAdmin, type FirstAdmin } from './first-admin';
import { startIdentityService } from './identity';
import { ensurePortsFree, lockDataDir, stopLeftoverDevServer, type PortClaim } from './preflight';
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
  // A second start on the same data directory or ports refuses before it opens anything.
  const unlock = lockDataDir(dataDir);
  process.once('exit', unlock);
  const withoutDatabase = !stack.POSTGRES_DSN && stack.KEEL_EMBEDDED_DB === 'off';
  try {
    // Holding the lock, no live Keel owns this directory: a dev server recorded here outlived a killed start, and
    // would hold the Temporal ports below.
    const leftover = await stopLeftoverDevServer(dataDir);
    if (leftover !== undefined) {
      say(`stopped the Temporal dev server (pid ${leftover}) that an earlier start on ${dataDir} left running`);
    }
    await ensurePortsFree(withoutDatabase ? [portClaims(config)[0]!] : portClaims(config));
  } catch (err) {
    unlock();
    throw err;
  }
  if (withoutDatabase) return runWithoutDatabase(stack, dataDir);

  // Closed in reverse order of opening, on Ctrl-C or on a failed start; the lock goes last.
  const closers = createClosers();
  closers.push(async () => unlock());
  // From here a signal closes whatever has opened so far (and the exit kills a dev server still starting).
  onStopSignal(say, () => closers.close());
  try {
    setSdkMetricsUrl(await installSdkMetrics(stack.TEMPORAL_SDK_METRICS_PORT));
    // Before the Temporal client and the worker, which trace through it.
    const tracing = startTracing({ serviceName: 'keel', env: config.telemetry });
    closers.push(() => tracing.shutdown());
    const resources = await openResources(config, dataDir, say);
    closers.push(() => resources.close());
    const { pool, queue, models, kb, secrets, devServer, embedded, temporalAddress } = resources;
    // One secret for the worker that mints links and the API that checks them; generated under DATA_DIR when none is
    // configured, so links work out of the box and survive a restart (docs/answer-links.md).
    const answerLinks = await resolveAnswerLinks(stack, secrets, {
      defaultBaseUrl: `http://${stack.API_HOST === '0.0.0.0' ? '127.0.0.1' : stack.API_HOST}:${stack.API_PORT}`,
      generatedSecretFile: path.join(dataDir, 'answer-link-secret'),
    });
    const identityUsers: { current?: Parameters<typeof sharedDatabasePeople>[0] } = {};
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
        blobs: openBlobStore(blobStoreSettings(stack, workspaceRoot(stack)), secrets),
        kb,
        chat: chatWebApiFromEnv(stack, secrets),
        connectors: config.connectors,
        products: config.products,
        secrets,
        liveOutput: config.models.liveOutput,
        webhooks: webhookSettings(stack),
        mcp: mcpClientSettings(stack),
        answerLinks: answerLinks.settings,
        // The identity service starts after the worker, on this database: escalations read its users once it has.
        people: {
          withRole: (role) =>
            identityUsers.current
              ? sharedDatabasePeople(identityUsers.current).withRole(role)
              : Promise.reject(new Error('the identity service has not started')),
        },
      },
      workflowBundlePath: stack.WORKFLOW_BUNDLE_PATH,
      shutdownGraceTime: stack.WORKER_SHUTDOWN_GRACE,
      tracing,
      // Off unless KEEL_WORKER_VERSIONING asks; when on, the worker makes its version current itself (docs/deployment.md).
      versioning: workerVersioning(stack),
    });
    closers.push(() => worker.stop());
    if (worker.version) say(`the worker polls as ${worker.version.buildId} (${worker.promotion ?? 'not promoted'})`);

    const logLevel = stack.LOG_LEVEL === 'info' ? 'warn' : stack.LOG_LEVEL;
    const identity = await startIdentityService({
      config: config.identity,
      dataDir,
      pool,
      databaseUrl: resources.databaseUrl,
      instanceId: stack.KEEL_INSTANCE_ID,
      logLevel,
      secrets,
    });
    closers.push(() => identity.close());
    identityUsers.current = { pool: identity.pool, tables: identity.tables };
    const firstAdmin = await ensureFirstAdmin({
      pool: identity.pool,
      tables: identity.tables,
      dataDir,
      email: stack.CONSOLE_ADMIN_EMAIL,
      defaultBudgetCents: identity.defaultBudgetCents,
    });

    // Admission reads budgets from the identity tables when identity shares this database (docs/admission.md).
    const deps = {
      ...apiDepsFromEnv(stack, {
        pool,
        queue,
        temporal: resources.temporal.client,
        models: models.router,
        kb,
        secrets,
        budget: identity.budget,
      }),
      answerLinks: answerLinks.settings,
    };
    const app = await buildApp(deps, { logger: { level: logLevel } }, { routes: [chatAppRoutes(deps)] });
    logConfigWarnings(app.log, [...config.warnings, ...answerLinks.warnings]);
    closers.push(() => app.close());
    const apiUrl = await app.listen({ host: stack.API_HOST, port: stack.API_PORT });
    // Unless configured, links point at the address the API really listens on (a port of 0 is chosen only now).
    if (answerLinks.settings && !stack.ANSWER_LINK_BASE_URL) answerLinks.settings.baseUrl = apiUrl;

    const token = await seedDevToken(pool, dataDir, stack.KEEL_DEV_TOKEN);
    const webConsole = await startStackConsole({
      config: config.console,
      dataDir,
      pool,
      identity,
      apiUrl,
      temporalUiUrl: devServer?.uiUrl,
      logLevel,
      secrets,
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

    await worker.done;
  } catch (err) {
    await closers.close();
    throw err;
  }
}

/** Every port `npm start` listens on, with the variable that moves it (the API's first). */
function portClaims(config: StartConfig): PortClaim[] {
  const { stack, identity, console: web } = config;
  const claims: PortClaim[] = [
    { variable: 'API_PORT', host: stack.API_HOST, port: stack.API_PORT },
    { variable: 'AUTH_PORT', host: identity.AUTH_HOST, port: identity.AUTH_PORT },
    { variable: 'CONSOLE_PORT', host: web.CONSOLE_HOST, port: web.CONSOLE_PORT },
  ];
  // Keel joins a Temporal server only when TEMPORAL_ADDRESS names it; a busy dev-server port is someone else's.
  if (!stack.TEMPORAL_ADDRESS) {
    claims.push(
      { variable: 'TEMPORAL_DEV_PORT', host: '127.0.0.1', port: stack.TEMPORAL_DEV_PORT },
      { variable: 'TEMPORAL_UI_PORT', host: '127.0.0.1', port: stack.TEMPORAL_UI_PORT },
    );
  }
  if (!stack.POSTGRES_DSN) {
    claims.push({ variable: 'EMBEDDED_POSTGRES_PORT', host: '127.0.0.1', port: stack.EMBEDDED_POSTGRES_PORT });
  }
  return claims;
}

/** Past this, a stop that still waits on something is forced: Ctrl-C always ends `npm start`. */
const FORCED_STOP_MS = 15_000;

/**
 * Ctrl-C, SIGTERM or SIGHUP (the terminal closed) closes everything in order (streams end, the worker drains, the dev
 * server stops last) and exits 0; a second signal, or a close still waiting after FORCED_STOP_MS, exits 1 at once (the
 * dev server is killed on exit). A signal sent to `npm start`'s own pid reaches this process too: the npm scripts
 * `exec` node, so npm's forwarded signal is not left with a shell that waits for its child instead.
 */
function onStopSignal(say: (line: string) => void, close: () => Promise<void>): void {
  onStopSignals(
    (signal) => {
      const started = Date.now();
      say(`\nstopping Keel (${signal})… (again to force)`);
      setTimeout(() => {
        say(`Keel did not stop within ${FORCED_STOP_MS / 1000} s; forcing`);
        process.exit(1);
      }, FORCED_STOP_MS).unref();
      void close().then(() => {
        say(`Keel stopped in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
        process.exit(0);
      });
    },
    (signal) => {
      say(`${signal} again: stopping Keel now, without waiting`);
      process.exit(1);
    },
  );
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
