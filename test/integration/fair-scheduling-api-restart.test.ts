import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { releaseSlots, type SlotPolicy } from '../../db/job-slots';
import { createToken } from '../../db/tokens';
import { testPostgresDsn, testRedisUrl, uniqueSuffix } from './env';
import { eventually } from './eventually';
import { startKeelProcess, type KeelProcess } from './fault-drill-stack';
import { startInfrastructure, type Infrastructure } from './harness';
import { liveSlotCount, mostHeldAtOnce, slotClient, slotRows } from './slot-client';
import { steadyPort } from './stack-process';

/**
 * Fair scheduling's slots across an API restart (docs/scheduling.md). The API and the worker run as processes of their
 * own (dist/stack/api-main.js and worker-main.js, as in production) on the run's shared Temporal dev server and this
 * file's schema, one slot for the deployment; the API is SIGKILLed, as a process manager or the OOM killer does, and
 * started again with the same environment.
 *
 * What an API restart risks for slots: the workflows and the rows go on without it, but the sweeper lives in the API.
 * While no API runs, a job terminated from outside keeps its slot; and an API killed between a grant's commit and its
 * signal (in a sweep, or in an admin's raised limit) leaves a job granted but waiting for its own re-claim timer. The
 * queued jobs' re-claim timer here is far longer than the test, so each start below is by a signal.
 */
const POLICY: SlotPolicy = { orgSlots: null, totalSlots: 1, fair: true };

let infra: Infrastructure;
let dir: string;
let apiEnv: Record<string, string>;
let baseUrl: string;
let api: KeelProcess | undefined;
let worker: KeelProcess | undefined;
let client: ReturnType<typeof slotClient>;

async function startApi(): Promise<KeelProcess> {
  const started = startKeelProcess('api-main', apiEnv);
  let exited = false;
  void started.exited.then(() => (exited = true));
  await eventually(
    async () => {
      if (exited) throw new Error(`the API exited:\n${started.output()}`);
      return (await fetch(`${baseUrl}/healthz`)).ok;
    },
    { what: 'the API', timeoutMs: 120_000, intervalMs: 200 },
  );
  return started;
}

beforeAll(async () => {
  infra = await startInfrastructure();
  const temporalAddress = process.env.KEEL_TEST_TEMPORAL_ADDRESS;
  if (!temporalAddress) throw new Error('run through jest --selectProjects integration (its global set-up)');
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-slots-api-'));
  const port = await steadyPort();
  baseUrl = `http://127.0.0.1:${port}`;
  const shared = {
    POSTGRES_DSN: testPostgresDsn,
    POSTGRES_SCHEMA: infra.db.schema,
    REDIS_URL: testRedisUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: infra.temporal.namespace ?? 'default',
    KEEL_INSTANCE_ID: `test-${uniqueSuffix()}`,
    JOB_QUEUE_KEY: `keel-test-${uniqueSuffix()}`,
    WORKSPACE_DIR: path.join(dir, 'workspaces'),
    LOG_LEVEL: 'fatal',
  };
  apiEnv = {
    ...shared,
    DATA_DIR: path.join(dir, 'api'),
    API_PORT: String(port),
    STREAM_POLL_MS: '300',
    RATE_LIMIT_USER_PER_MINUTE: '100000',
    RATE_LIMIT_ORG_PER_MINUTE: '100000',
    JOB_SCHEDULING: 'true',
    JOB_SLOTS_TOTAL: String(POLICY.totalSlots),
    JOB_SLOT_RECLAIM_MS: String(30 * 60_000),
    JOB_SLOT_SWEEP_MS: '500',
  };
  api = await startApi();
  worker = startKeelProcess('worker-main', {
    ...shared,
    DATA_DIR: path.join(dir, 'worker'),
    WORKFLOW_BUNDLE_PATH: path.resolve(__dirname, '../../dist/workflow-bundle.js'),
    WORKER_SHUTDOWN_GRACE: '1 second',
  });
  const { token } = await createToken(infra.db.pool, { userId: 'dev', orgId: 'org-test', isAdmin: true });
  client = slotClient(() => baseUrl, token);
}, 180_000);

afterEach(async () => {
  // However a test ended, its jobs' slots are all given back before the next one.
  await eventually(async () => (await liveSlotCount(infra.db.pool)) === 0, {
    what: 'every slot released after the test',
    timeoutMs: 120_000,
  });
});

afterAll(async () => {
  await api?.kill();
  await worker?.kill();
  await infra?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

async function killApi(): Promise<void> {
  await api!.kill('SIGKILL');
  api = undefined;
}

test('the API killed while a job is queued: a job terminated meanwhile keeps its slot until the restarted API sweeps it; the queued job then starts', async () => {
  const x = await client.submit('Write x.md #ask');
  await client.holding(x);
  const y = await client.submit('Write y.md #ask');
  await client.queued(y);

  await killApi();
  await infra.temporal.client.workflow.getHandle(x).terminate('terminated from the Temporal UI while no API runs');
  // A terminate runs no workflow code, and the sweeper that would free its slot lives in the API: nothing has.
  expect((await slotRows(infra.db.pool, [x, y])).map((r) => r.state)).toEqual(['running', 'queued']);

  api = await startApi();
  await eventually(async () => (await slotRows(infra.db.pool, [x]))[0]!.state === 'released', {
    what: `${x}'s slot released by the restarted API's sweeper`,
  });
  await client.holding(y);

  // The restarted API serves the queue as before: a job queued behind Y starts when Y is cancelled through it.
  const z = await client.submit('Write z.md #ask');
  expect((await client.queued(z)).queue).toMatchObject({ position: 1, reason: 'total_limit' });
  await client.cancel(y);
  await client.ended(y, 'cancelled');
  await client.answer(z, 'friendly');
  await client.ended(z, 'completed');

  const rows = await slotRows(infra.db.pool, [x, y, z]);
  expect(rows.map((r) => r.state)).toEqual(['released', 'released', 'released']);
  expect(mostHeldAtOnce(rows)).toBe(1);
}, 420_000);

test('the API killed between a grant and its signal: the restarted API tells the granted job, long before its re-claim', async () => {
  const x = await client.submit('Write u.md #ask');
  await client.holding(x);
  const y = await client.submit('Write v.md #ask');
  await client.queued(y);

  await killApi();
  // What an API killed inside its sweep leaves: X (terminated) released and Y granted in one commit
  // (db/job-slots.ts, as the sweeper runs it), and Y never signalled.
  await infra.temporal.client.workflow.getHandle(x).terminate('terminated from the Temporal UI');
  expect(await releaseSlots(infra.db.pool, [x], POLICY)).toEqual([y]);
  const { rows: status } = await infra.db.pool.query<{ status: string }>(
    'SELECT status FROM job_runs WHERE job_id = $1',
    [y],
  );
  expect(status[0]!.status).toBe('queued');

  api = await startApi();
  // Y's re-claim is 30 minutes away: only the restarted API's first sweep, telling every job holding a slot, starts it.
  await client.holding(y);
  await client.cancel(y);
  await client.ended(y, 'cancelled');
  expect(mostHeldAtOnce(await slotRows(infra.db.pool, [x, y]))).toBe(1);
}, 420_000);
