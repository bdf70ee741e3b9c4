import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createQueueStore } from '../../queue/create-queue-store';
import type { QueueStore } from '../../queue/queue-store';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import type { Catalog } from '../../routing/catalog/types';
import { testRedisUrl, uniqueSuffix } from './env';
import type { KeelProcess } from './fault-drill-stack';
import { startGatedModel } from './gated-model';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { liveSlotCount, mostHeldAtOnce, slotClient, slotRows } from './slot-client';
import { alphaCatalog, startWorkerProcess } from './worker-process';

/**
 * Fair scheduling's slots across a worker SIGKILL (docs/scheduling.md): one slot for the deployment; job X holds it
 * and is in the middle of a model call (its executor's, held by a gate in front of the demo model) on a worker that is
 * a process of its own (dist/stack/worker-main.js, as in production), while job Y waits `queued`. The worker process is
 * SIGKILLed, as a process manager or the OOM killer does, and a new one started. X's call is retried on the new worker
 * and X finishes; its release hands the slot to Y, which finishes too. The queued job's re-claim timer is far longer
 * than the test, so Y starts by X's release telling it, not by its backstop.
 */
let infra: Infrastructure;
let queue: QueueStore;
let demo: DemoModelServer;
let gate: Awaited<ReturnType<typeof startGatedModel>>;
let keel: KeelUnderTest;
let dir: string;
let catalog: Catalog;
let instanceId: string;
let worker: KeelProcess | undefined;
const controls = { providers: { alpha: {} } };

beforeAll(async () => {
  infra = await startInfrastructure();
  instanceId = `test-${uniqueSuffix()}`;
  queue = await createQueueStore({ redisUrl: testRedisUrl, instanceId });
  demo = await startDemoModelServer();
  gate = await startGatedModel({ upstream: demo.baseUrl, holdLevel: 'L4.executor' });
  catalog = alphaCatalog(gate.baseUrl);
  keel = await startKeel({
    ...infra,
    queue,
    catalog,
    controls,
    providerEnv: { ALPHA_KEY: 'sk-alpha' },
    scheduling: {
      policy: { orgSlots: null, totalSlots: 1, fair: true },
      reclaimMs: 30 * 60_000,
      sweepMs: 1_000,
    },
  });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-slots-kill-'));
  worker = await startWorkerProcess({ infra, keel, dir, catalog, controls, instanceId });
}, 120_000);

afterAll(async () => {
  await worker?.kill();
  await keel?.close();
  await gate?.close();
  await demo?.close();
  await queue?.close();
  await infra?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

test('a worker SIGKILLed while the slot holder runs a model call: the holder finishes, the queued job gets the slot, nothing leaks', async () => {
  const api = slotClient(() => keel.baseUrl, keel.token);
  const x = await api.submit('Write x.md that greets the reader');
  await gate.reached;
  expect((await api.view(x)).queue?.state).toBe('running');
  const y = await api.submit('Write y.md that greets the reader');
  expect((await api.queued(y)).queue).toMatchObject({ position: 1, reason: 'total_limit' });

  await worker!.kill('SIGKILL');
  worker = undefined;
  // The slots are rows: the kill changed nothing in them.
  expect((await slotRows(infra.db.pool, [x, y])).map((r) => r.state)).toEqual(['running', 'queued']);
  worker = await startWorkerProcess({ infra, keel, dir, catalog, controls, instanceId });
  // The held call's socket belonged to the killed worker; the retry on the new one passes the gate.
  gate.release();

  await api.ended(x, 'completed');
  await api.ended(y, 'completed');
  const rows = await slotRows(infra.db.pool, [x, y]);
  expect(rows.map((r) => r.state)).toEqual(['released', 'released']);
  expect(rows[1]!.granted_at!.getTime()).toBeGreaterThanOrEqual(rows[0]!.released_at!.getTime());
  expect(mostHeldAtOnce(rows)).toBe(1);
  expect(await liveSlotCount(infra.db.pool)).toBe(0);
  // Y waited once, and was told once.
  const { rows: queuedEvents } = await infra.db.pool.query(
    `SELECT 1 FROM job_events WHERE job_id = $1 AND kind = 'queued'`,
    [y],
  );
  expect(queuedEvents).toHaveLength(1);

  // The kill landed inside X's executor model call: its activity ran again on the new worker.
  const history = await infra.temporal.client.workflow.getHandle(`${x}/L4.executor/1`).fetchHistory();
  const attempts = (history.events ?? []).flatMap((e) =>
    e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt ?? 1] : [],
  );
  expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
}, 420_000);
