import type { PeopleDirectory } from '../../approvals/escalation-people';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Client, type Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { buildApp } from '../../api/app';
import { chatAppRoutes } from '../../chat/routes';
import type { ApiDeps } from '../../api/deps';
import type { ActivityDeps } from '../../activities';
import type { BudgetLookup } from '../../jobs/budget';
import type { SchedulingSettings } from '../../jobs/scheduling';
import { identityServiceBudget, sharedDatabaseBudget } from '../../jobs/budget-sources';
import { OWN_INGEST_TABLES } from '../../db/qualified-tables';
import type { RateLimits } from '../../api/plugins/principal';
import type { ChatApp } from '../../chat-relay/chat-app';
import type { ChatWebApi } from '../../chat-relay/web-api';
import { createIdAllocator } from '../../db/ids';
import { migrate } from '../../db/migrate';
import { createToken } from '../../db/tokens';
import { createQueueStore } from '../../queue/create-queue-store';
import type { QueueStore } from '../../queue/queue-store';
import type { ProductSettings } from '../../products/settings';
import type { SecretStore } from '../../secrets/store';
import type { WebhookSettings } from '../../webhooks/config';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { loadCatalog, loadTeamControls } from '../../routing/catalog/load';
import type { Catalog, TeamControls } from '../../routing/catalog/types';
import { shippedModelFiles } from '../../routing/config';
import { buildRouter, withDemoAt } from '../../routing/open-models';
import type { Tracing } from '../../telemetry/tracing';
import { clientInterceptors } from '../../temporal/connection';
import { startKeelWorker, type RunningWorker } from '../../temporal/worker';
import { bundleWorkflows } from '../../temporal/workflow-code';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { createTestPool, testPostgresDsn, testRedisUrl, uniqueSuffix } from './env';
import { claimSharedTemporal, sharedWorkflowBundle, startOwnTemporal } from './shared-services';

/**
 * The integration suite's one harness: the real Temporal dev server (the installed CLI, started once per jest run by
 * the global set-up, test/integration/shared-services.ts), a Temporal namespace, a PostgreSQL schema and a Redis key
 * prefix of the test file's own, the real API on a loopback port and real workers. Only LLM vendors are replaced, by
 * local servers that speak the chat_compat wire.
 */
export async function startTemporal(): Promise<TestWorkflowEnvironment> {
  // A file run without the global set-up (a script importing the harness) starts a server of its own.
  return (await claimSharedTemporal()) ?? startOwnTemporal();
}

export interface TestDatabase {
  pool: Pool;
  schema: string;
  dsn: string;
  drop(): Promise<void>;
}

/** A migrated schema of this test's own in the real PostgreSQL. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const schema = `t_${uniqueSuffix()}`;
  const pool = createTestPool(schema);
  await migrate(pool, schema);
  return {
    pool,
    schema,
    dsn: testPostgresDsn,
    async drop() {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

export function createTestQueue(): Promise<QueueStore> {
  return createQueueStore({ redisUrl: testRedisUrl, instanceId: `test-${uniqueSuffix()}` });
}

/** The real services one test file owns: a Temporal namespace, a database schema, a Redis key prefix. */
export interface Infrastructure {
  temporal: TestWorkflowEnvironment;
  db: TestDatabase;
  queue: QueueStore;
  close(): Promise<void>;
}

export async function startInfrastructure(): Promise<Infrastructure> {
  const temporal = await startTemporal();
  const db = await createTestDatabase();
  const queue = await createTestQueue();
  return {
    temporal,
    db,
    queue,
    async close() {
      await queue.close();
      await db.drop();
      await temporal.teardown();
    },
  };
}

export interface KeelUnderTest {
  app: FastifyInstance;
  baseUrl: string;
  token: string;
  taskQueue: string;
  workspaceRoot: string;
  deps: ApiDeps;
  /** Starts a worker on this stack's task queue; several may run (one after another, or at once). */
  startWorker(options?: {
    shutdownGraceTime?: string;
    liveOutput?: ActivityDeps['liveOutput'];
  }): Promise<RunningWorker>;
  close(): Promise<void>;
}

export interface KeelOptions {
  temporal: TestWorkflowEnvironment;
  db: TestDatabase;
  queue: QueueStore;
  /** Where the catalog's `demo` provider points; defaults to an offline demo model started here. */
  demoBaseUrl?: string;
  /** Defaults to the shipped catalog and team controls. */
  catalog?: Catalog;
  controls?: TeamControls;
  /** Provider keys are read from here (never from the test process's own environment). */
  providerEnv?: NodeJS.ProcessEnv;
  /** Per-job cost ceiling handed to every job (JOB_BUDGET_USD). */
  jobBudgetUsd?: number;
  /** The highest ceiling a submission may name (JOB_BUDGET_MAX_USD). */
  jobBudgetMaxUsd?: number;
  /** `heartbeat` event interval during model calls (LEVEL_HEARTBEAT_MS). */
  levelHeartbeatMs?: number;
  rateLimits?: RateLimits;
  streamPollMs?: number;
  /** The team-chat app behind /v1/chatapp/* and the Web API the workers post with (a local fake in tests). */
  chat?: { app: ChatApp; api: ChatWebApi };
  /** Build limits and the Vercel API (a local fake in tests). */
  products?: ProductSettings;
  /** The secrets store models, the deploy and connectors read from (a temporary directory in tests). */
  secrets?: SecretStore;
  /** Budgets at admission (the identity service's tables reachable from the test database). */
  budget?: { pool: Pool; lookup: BudgetLookup };
  /**
   * The identity service on a database of its own (the chart's shape): admission asks its budget-policy endpoint, and
   * the API serves it the ledger's internal routes, both with the shared internal token.
   */
  identityService?: { url: string; internalToken: string };
  /** Tracing (telemetry/tracing.ts) for the API's Temporal client and the workers, as the entry points wire it. */
  tracing?: Tracing;
  /** Webhook delivery for the API (its allowed hosts) and the workers; absent: production defaults, no allowed host. */
  webhooks?: WebhookSettings;
  /** Answer links (docs/answer-links.md) signed with this secret, served at this stack's own address; absent: off. */
  answerLinks?: { secret: string; ttlSeconds?: number };
  /** Who holds an identity role, for the workers' escalations (docs/reminders.md); absent: targets are not resolved. */
  people?: PeopleDirectory;
  /** Fair scheduling (docs/scheduling.md): the slots every job claims; absent: off. */
  scheduling?: SchedulingSettings;
}

/**
 * The ingest API's dependencies for a test that builds the app itself over a database and a queue store, with no
 * worker and no models (the suites of admission, tokens and outages, whose Temporal is often a closed port): a task
 * queue of its own, generous rate limits and the usual stream timings. `overrides` replace or add any of them.
 */
export function apiDepsOver(
  base: { pool: Pool; queue: QueueStore; connection: Connection },
  overrides: Partial<ApiDeps> = {},
): ApiDeps {
  return {
    pool: base.pool,
    queue: base.queue,
    temporal: new Client({ connection: base.connection }),
    ids: createIdAllocator({ pool: base.pool, queue: base.queue }),
    taskQueue: `keel-test-${uniqueSuffix()}`,
    models: { list: async () => [] },
    rateLimits: { userPerMinute: 1000, orgPerMinute: 1000 },
    workspaceRoot: os.tmpdir(),
    heartbeatMs: 15_000,
    streamPollMs: 1_000,
    ...overrides,
  };
}

/** The ingest API listening on a loopback port, with a dev token, over the given real services. */
export async function startKeel(options: KeelOptions): Promise<KeelUnderTest> {
  let demo: DemoModelServer | undefined;
  if (!options.demoBaseUrl) demo = await startDemoModelServer();
  const shipped = shippedModelFiles();
  const catalog = withDemoAt(
    options.catalog ?? (await loadCatalog(shipped.catalog)),
    options.demoBaseUrl ?? demo!.baseUrl,
  );
  const controls = options.controls ?? (await loadTeamControls(shipped.controls));
  const models = await buildRouter(
    catalog,
    controls,
    options.providerEnv ?? {},
    options.queue,
    () => undefined,
    options.secrets,
  );
  const workspaceRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-ws-'));
  const taskQueue = `keel-test-${uniqueSuffix()}`;
  const deps: ApiDeps = {
    pool: options.db.pool,
    queue: options.queue,
    temporal: options.tracing
      ? new Client({
          connection: options.temporal.connection,
          namespace: options.temporal.namespace ?? 'default',
          interceptors: clientInterceptors(),
        })
      : options.temporal.client,
    ids: createIdAllocator({ pool: options.db.pool, queue: options.queue }),
    taskQueue,
    models,
    rateLimits: options.rateLimits ?? { userPerMinute: 1000, orgPerMinute: 1000 },
    workspaceRoot,
    heartbeatMs: 15_000,
    streamPollMs: options.streamPollMs ?? 1_000,
    jobBudgetUsd: options.jobBudgetUsd,
    jobBudgetMaxUsd: options.jobBudgetMaxUsd,
    levelHeartbeatMs: options.levelHeartbeatMs,
    scheduling: options.scheduling,
    chatApp: options.chat?.app,
    budget: options.identityService
      ? identityServiceBudget({
          identityUrl: options.identityService.url,
          internalToken: options.identityService.internalToken,
          pool: options.db.pool,
          ledger: OWN_INGEST_TABLES,
        })
      : options.budget && sharedDatabaseBudget(options.budget),
    internalToken: options.identityService?.internalToken,
    webhookAllowHosts: options.webhooks?.allowHosts,
    // The base URL is this stack's own address, known once it listens (below); the API itself only checks signatures.
    answerLinks: options.answerLinks && {
      baseUrl: '',
      secret: options.answerLinks.secret,
      ttlSeconds: options.answerLinks.ttlSeconds ?? 3600,
    },
  };
  const app = await buildApp(
    deps,
    { logger: process.env.KEEL_TEST_API_LOG === '1' ? { level: 'error' } : false },
    { routes: [chatAppRoutes(deps)] },
  );
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  if (deps.answerLinks) deps.answerLinks.baseUrl = baseUrl;
  const { token } = await createToken(options.db.pool, { userId: 'dev', orgId: 'org-test', isAdmin: true });
  const workers: RunningWorker[] = [];

  return {
    app,
    baseUrl,
    token,
    taskQueue,
    workspaceRoot,
    deps,
    async startWorker(workerOptions = {}) {
      const running = await startKeelWorker({
        connection: options.temporal.nativeConnection,
        namespace: options.temporal.namespace ?? 'default',
        taskQueue,
        deps: {
          pool: options.db.pool,
          queue: options.queue,
          models,
          workspaceRoot,
          chat: options.chat?.api,
          products: options.products,
          secrets: options.secrets,
          liveOutput: workerOptions.liveOutput,
          webhooks: options.webhooks,
          answerLinks: deps.answerLinks,
          people: options.people,
        },
        workflowCode: await testWorkflowBundle(),
        shutdownGraceTime: workerOptions.shutdownGraceTime ?? '1 second',
        tracing: options.tracing,
      });
      workers.push(running);
      return running;
    },
    async close() {
      await Promise.allSettled(workers.map((w) => w.stop()));
      await app.close();
      await demo?.close();
      await fs.rm(workspaceRoot, { recursive: true, force: true });
    },
  };
}

let workflowBundle: Promise<string> | undefined;

/**
 * The workflow bundle every worker runs: the one the global set-up built for the whole run, else built from source on
 * first use and shared within this file (jest gives each test file its own module registry).
 */
export async function testWorkflowBundle(): Promise<{ code: string }> {
  workflowBundle ??= Promise.resolve(sharedWorkflowBundle() ?? bundleWorkflows());
  return { code: await workflowBundle };
}

/**
 * Submits `prompt` as the stack's dev token and reads the job's stream until it closes: the job id and every event,
 * in order. A refused submission throws with the API's answer.
 */
export async function runJobToEnd(
  keel: KeelUnderTest,
  prompt: string,
): Promise<{ jobId: string; events: EventEnvelope[] }> {
  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt }),
  });
  if (response.status !== 202) throw new Error(`POST /v1/chat answered ${response.status}: ${await response.text()}`);
  const { job_id: jobId } = (await response.json()) as { job_id: string };
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  return { jobId, events };
}
