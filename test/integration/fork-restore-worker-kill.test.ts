import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { streamJobEvents } from '../../cli/event-stream';
import { recordJobFile } from '../../db/files';
import type { EventEnvelope } from '../../events/envelope';
import { createQueueStore } from '../../queue/create-queue-store';
import type { QueueStore } from '../../queue/queue-store';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { blobRelativePath, sha256Hex } from '../../snapshots/blob-store';
import { defaultBlobDir } from '../../snapshots/config';
import { testRedisUrl, uniqueSuffix } from './env';
import { eventually } from './eventually';
import type { KeelProcess } from './fault-drill-stack';
import { startGatedModel } from './gated-model';
import { alphaCatalog, startWorkerProcess } from './worker-process';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * A fork whose workspace restore (docs/fork-and-compare.md, `restoreForkWorkspace`) is interrupted by a worker process
 * SIGKILLed half-way, and finished by another worker. The source job's executor finds three more files in its workspace
 * (written and recorded by the test while the executor's model call is held), so the fork point's manifest has four
 * files, restored in path order. The blob of the second is swapped for a named pipe: reading it blocks until the test
 * writes the bytes, so the first worker (dist/stack/worker-main.js, a process of its own) is killed with the first file
 * restored and the second not, decided by what the working directory holds, not by a clock. The second worker (in
 * this process) retries the activity once its heartbeat times out; the test then feeds the pipe the blob's bytes.
 */
let infra: Infrastructure;
let queue: QueueStore;
let demo: DemoModelServer;
let gate: Awaited<ReturnType<typeof startGatedModel>>;
let keel: KeelUnderTest;
let dir: string;
let worker: KeelProcess | undefined;
const suffix = uniqueSuffix();

beforeAll(async () => {
  infra = await startInfrastructure();
  const instanceId = `test-${uniqueSuffix()}`;
  queue = await createQueueStore({ redisUrl: testRedisUrl, instanceId });
  demo = await startDemoModelServer();
  gate = await startGatedModel({ upstream: demo.baseUrl, holdLevel: 'L4.executor' });
  const catalog = alphaCatalog(gate.baseUrl);
  const controls = { providers: { alpha: {} } };
  keel = await startKeel({ ...infra, queue, catalog, controls, providerEnv: { ALPHA_KEY: 'sk-alpha' } });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-restore-kill-'));
  worker = await startWorkerProcess({ infra, keel, dir, catalog, controls, instanceId: instanceId });
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

async function follow(jobId: string): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  return events;
}

/** Every file under a directory, relative, sorted: what a person (or list_files) finds in a working directory. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

test('a fork whose restore lost its worker half-way is finished by another: every file once, byte for byte', async () => {
  // The source: a default demo job whose executor finds three more files in its workspace.
  const extra = new Map<string, Buffer>([
    ['data/a.txt', Buffer.from(`first file ${suffix}\n`)],
    ['data/b.txt', Buffer.from(`second file, restored through a pipe ${suffix}\n`)],
    ['data/c.bin', Buffer.from([0, 1, 2, 255, ...Buffer.from(suffix)])],
  ]);
  const submitted = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Write hello.md that greets the reader' }),
  });
  expect(submitted.status).toBe(202);
  const { job_id: sourceId } = (await submitted.json()) as { job_id: string };
  const sourceEvents = follow(sourceId);
  await gate.reached;
  for (const [file, bytes] of extra) {
    const target = path.join(keel.workspaceRoot, sourceId, file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, bytes);
    await recordJobFile(infra.db.pool, sourceId, { path: file, sha256: sha256Hex(bytes), sizeBytes: bytes.length });
  }
  gate.release();
  const source = await sourceEvents;
  expect(source.at(-1)?.kind).toBe('final');
  const lastLevel = String(source.filter((e) => e.kind === 'level_finished').at(-1)!.payload.level_id);

  // The source's workspace at the fork point, read through the API: four files.
  const listing = await fetch(`${keel.baseUrl}/v1/jobs/${sourceId}/files?at=${encodeURIComponent(lastLevel)}`, {
    headers: { authorization: `Bearer ${keel.token}` },
  });
  const atForkPoint = ((await listing.json()) as { files: Array<{ path: string; sha256: string }> }).files;
  expect(atForkPoint.map((f) => f.path)).toEqual(['data/a.txt', 'data/b.txt', 'data/c.bin', 'hello.md']);
  const expected = new Map<string, Buffer>();
  for (const file of atForkPoint) {
    const res = await fetch(
      `${keel.baseUrl}/v1/jobs/${sourceId}/files/${encodeURIComponent(file.path)}?at=${encodeURIComponent(lastLevel)}`,
      { headers: { authorization: `Bearer ${keel.token}` } },
    );
    expected.set(file.path, Buffer.from(await res.arrayBuffer()));
  }
  expect(expected.get('data/b.txt')).toEqual(extra.get('data/b.txt'));

  // data/b.txt's blob becomes a named pipe: a restore that reaches it waits for the test.
  const blob = path.join(
    defaultBlobDir(keel.workspaceRoot),
    'sha256',
    blobRelativePath(sha256Hex(extra.get('data/b.txt')!)),
  );
  await fs.rm(blob);
  execFileSync('mkfifo', [blob]);

  const forked = await fetch(`${keel.baseUrl}/v1/jobs/${sourceId}/fork`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ from: { level_run_id: lastLevel } }),
  });
  expect(forked.status).toBe(202);
  const { job_id: forkId } = (await forked.json()) as { job_id: string };
  const forkEvents = follow(forkId);
  const forkDir = path.join(keel.workspaceRoot, forkId);

  // Half-way: the first file restored, the second waiting on its blob. Kill the worker there.
  await eventually(async () => (await filesUnder(forkDir).catch((): string[] => [])).includes('data/a.txt'), {
    what: 'the first restored file of the fork',
    timeoutMs: 120_000,
  });
  expect(await filesUnder(forkDir)).toEqual(['data/a.txt']);
  await worker!.kill('SIGKILL');
  worker = undefined;
  await keel.startWorker();

  // The retried restore (on the new worker, once the heartbeat timed out) opens the pipe: it gets the blob's bytes.
  await fs.writeFile(blob, extra.get('data/b.txt')!);
  // The store holds a plain file again, for every reader after it.
  const temporary = `${blob}.${suffix}.tmp`;
  await fs.writeFile(temporary, extra.get('data/b.txt')!);
  await fs.rename(temporary, blob);

  const events = await forkEvents;
  expect(events.at(-1)?.kind).toBe('final');
  expect(events.filter((e) => e.kind === 'job_forked')).toHaveLength(1);
  // Every level run carried: the fork point is the source's last.
  expect(events.filter((e) => e.kind === 'level_finished').every((e) => e.payload.carried_over === true)).toBe(true);

  // The working directory: each file of the fork point once, byte for byte, and nothing else.
  expect(await filesUnder(forkDir)).toEqual([...expected.keys()]);
  for (const [file, bytes] of expected) expect(await fs.readFile(path.join(forkDir, file))).toEqual(bytes);
  // The fork's files: one row per path, the source's hashes.
  const { rows } = await infra.db.pool.query<{ path: string; sha256: string }>(
    'SELECT path, sha256 FROM job_files WHERE job_id = $1 ORDER BY path COLLATE "C"',
    [forkId],
  );
  expect(rows).toEqual(atForkPoint.map((f) => ({ path: f.path, sha256: f.sha256 })));

  // The restore really ran twice: once on the killed worker, once on its replacement.
  const history = await infra.temporal.client.workflow.getHandle(forkId).fetchHistory();
  const scheduled = new Map<string, string>();
  for (const e of history.events ?? []) {
    const attrs = e.activityTaskScheduledEventAttributes;
    if (attrs) scheduled.set(String(e.eventId), String(attrs.activityType?.name));
  }
  const restoreAttempts = (history.events ?? [])
    .filter((e) => {
      const attrs = e.activityTaskStartedEventAttributes;
      return attrs && scheduled.get(String(attrs.scheduledEventId)) === 'restoreForkWorkspace';
    })
    .map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1);
  expect(restoreAttempts).toHaveLength(1);
  expect(restoreAttempts[0]).toBeGreaterThanOrEqual(2);
}, 300_000);
