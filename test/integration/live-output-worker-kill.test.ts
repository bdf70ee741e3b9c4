import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { jobDeltaBuffers, type LiveDelta } from '../../events/live-deltas';
import { createQueueStore } from '../../queue/create-queue-store';
import type { QueueStore } from '../../queue/queue-store';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { testRedisUrl, uniqueSuffix } from './env';
import { eventually } from './eventually';
import type { KeelProcess } from './fault-drill-stack';
import { submitAndWatch } from './mid-stream-fallback';
import { alphaCatalog, startWorkerProcess } from './worker-process';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { startPausedStreamModel } from './paused-stream-model';

/**
 * A worker SIGKILLed while its model call streams (as a process manager or the kernel's OOM killer does): the
 * activity's heartbeats stop, Temporal notices at the heartbeat timeout and retries it on the second worker, and the
 * job finishes. The client watching the job sees the retried call's output replace the lost attempt's, and every
 * durable event once. The first worker is a process of its own (dist/stack/worker-main.js, as in production) so it
 * can be killed; the second runs in this process. The executor's stream is held part-way (a proxy in front of the
 * demo model) so the kill lands mid-stream.
 */
let infra: Infrastructure;
let queue: QueueStore;
let demo: DemoModelServer;
let paused: Awaited<ReturnType<typeof startPausedStreamModel>>;
let keel: KeelUnderTest;
let dir: string;
let worker: KeelProcess | undefined;

beforeAll(async () => {
  infra = await startInfrastructure();
  // The worker process finds the live channels under its instance's key prefix: a store of that instance here too.
  const instanceId = `test-${uniqueSuffix()}`;
  queue = await createQueueStore({ redisUrl: testRedisUrl, instanceId });
  demo = await startDemoModelServer();
  paused = await startPausedStreamModel({ upstream: demo.baseUrl, level: 'L4.executor', afterEvents: 8 });
  const catalog = alphaCatalog(paused.baseUrl);
  const controls = { providers: { alpha: {} } };
  keel = await startKeel({ ...infra, queue, catalog, controls, providerEnv: { ALPHA_KEY: 'sk-alpha' } });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-kill-'));
  worker = await startWorkerProcess({ infra, keel, dir, catalog, controls, instanceId: instanceId });
}, 120_000);

afterAll(async () => {
  await worker?.kill();
  await keel?.close();
  await paused?.close();
  await demo?.close();
  await queue?.close();
  await infra?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

test('a worker SIGKILLed mid-stream: the call is retried on another worker, its output replaces the lost attempt, every durable event once', async () => {
  const { jobId, executor, messages, streamed } = await submitAndWatch(keel, 'Write notes.md about durable workflows');
  const executorDeltas = () =>
    messages.flatMap((m) => (m.type === 'delta' && m.delta.level_id === executor ? [m.delta] : []));

  // The executor's write_file arguments are streaming, the client has some, and the stream is held there.
  await paused.reached;
  await eventually(() => executorDeltas().some((d) => d.kind === 'tool_arguments' && d.text.length > 0), {
    what: "the executor's streamed write_file arguments on the job stream",
    intervalMs: 25,
  });
  const lostAttempt = executorDeltas()[0]!.attempt;
  await worker!.kill('SIGKILL');
  worker = undefined;
  await keel.startWorker();
  await streamed;

  const events = messages.flatMap((m) => (m.type === 'event' ? [m.event] : []));
  // Every durable event once, in order, and the job finished.
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)?.kind).toBe('final');
  const ofExecutor = (kind: string) => events.filter((e) => e.kind === kind && e.payload.level_id === executor);
  expect(ofExecutor('level_started')).toHaveLength(1);
  expect(ofExecutor('level_finished')).toHaveLength(1);
  expect(ofExecutor('file_created')).toHaveLength(1);
  const rows = await infra.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM job_events WHERE job_id = $1', [
    jobId,
  ]);
  expect(Number(rows.rows[0]!.n)).toBe(events.length);

  // The lost attempt's output stopped part-way (its worker died: no end, no discard from it); the retried activity's
  // attempt is another one of the same call, which a client shows in its place, from offset 0 to its end.
  const deltas = executorDeltas();
  const firstCall = deltas[0]!.call_id;
  const lost = deltas.filter((d) => d.call_id === firstCall && d.attempt === lostAttempt);
  const retried = deltas.filter((d) => d.call_id === firstCall && d.attempt !== lostAttempt);
  expect(lost.some((d) => d.kind === 'end')).toBe(false);
  expect(new Set(retried.map((d) => d.attempt)).size).toBe(1);
  expect(retried.at(-1)!.kind).toBe('end');
  const argsOf = (of: LiveDelta[]) => {
    let text = '';
    for (const d of of.filter((x) => x.kind === 'tool_arguments')) {
      expect(d.offset).toBe(text.length);
      text += d.text;
    }
    return text;
  };
  const written = JSON.parse(argsOf(retried)) as { path: string; content: string };
  expect(argsOf(retried).startsWith(argsOf(lost))).toBe(true);
  expect(ofExecutor('file_created')[0]!.payload).toMatchObject({ path: written.path });
  // The retried call's first delta replaced the lost attempt's buffer, and its end removed it: nothing is left.
  expect(await queue.readBounded(jobDeltaBuffers(jobId))).toEqual([]);
}, 120_000);
