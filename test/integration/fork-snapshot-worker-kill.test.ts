import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { streamJobEvents } from '../../cli/event-stream';
import { recordJobFile } from '../../db/files';
import { manifestEntries } from '../../db/manifests';
import type { EventEnvelope } from '../../events/envelope';
import { createQueueStore } from '../../queue/create-queue-store';
import type { QueueStore } from '../../queue/queue-store';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { sha256Hex } from '../../snapshots/blob-store';
import { defaultBlobDir } from '../../snapshots/config';
import { FsBlobStore } from '../../snapshots/fs-blob-store';
import { parseManifestBytes } from '../../snapshots/manifest';
import { testRedisUrl, uniqueSuffix } from './env';
import { eventually } from './eventually';
import type { KeelProcess } from './fault-drill-stack';
import { startGatedModel } from './gated-model';
import { alphaCatalog, startWorkerProcess } from './worker-process';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * A job whose worker process is SIGKILLed while it takes a level run's workspace snapshot (docs/workspace-snapshots.md,
 * "A worker killed mid-snapshot"), finished by a new worker process, and then forked from that level run and from the
 * last one (docs/fork-and-compare.md).
 *
 * The source's executor finds three more files in its workspace (written and recorded by the test while the
 * executor's model call is held). The second, `data/b.txt`, is a named pipe in the working directory: the snapshot
 * reads the job's files in path order, so it stores the first file's blob and then blocks opening the pipe until the
 * test writes to it. The worker (dist/stack/worker-main.js, a process of its own, as in production) is killed there:
 * one blob stored, the next not, no manifest recorded, all decided by what the store and the tables hold, not by a
 * clock. A new worker process retries the snapshot once its heartbeat times out; when the retry opens the pipe, the
 * test puts a plain file with the same bytes in its place and then feeds the pipe, so every later reader finds a file.
 * No test hook in the product is needed, as in fork-restore-worker-kill.test.ts.
 */
let infra: Infrastructure;
let queue: QueueStore;
let demo: DemoModelServer;
let gate: Awaited<ReturnType<typeof startGatedModel>>;
let keel: KeelUnderTest;
let dir: string;
let instanceId: string;
const workers: KeelProcess[] = [];
let pipe: string | undefined;
let feeding: Promise<void> | undefined;
const catalogOf = () => alphaCatalog(gate.baseUrl);
const controls = { providers: { alpha: {} } };
const suffix = uniqueSuffix();

beforeAll(async () => {
  infra = await startInfrastructure();
  instanceId = `test-${uniqueSuffix()}`;
  queue = await createQueueStore({ redisUrl: testRedisUrl, instanceId });
  demo = await startDemoModelServer();
  gate = await startGatedModel({ upstream: demo.baseUrl, holdLevel: 'L4.executor' });
  keel = await startKeel({
    ...infra,
    queue,
    catalog: catalogOf(),
    controls,
    providerEnv: { ALPHA_KEY: 'sk-alpha' },
  });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-snapshot-kill-'));
  workers.push(await startWorker('first'));
}, 120_000);

afterAll(async () => {
  // A test that failed before the retried snapshot opened the pipe leaves the feed waiting for a reader: be it.
  if (feeding && pipe) {
    const reader = await fs.open(pipe, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK).catch(() => undefined);
    await feeding.catch(() => undefined);
    await reader?.close();
  }
  for (const worker of workers) await worker.kill();
  await keel?.close();
  await gate?.close();
  await demo?.close();
  await queue?.close();
  await infra?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

/** A worker process on the test's stack, with a folder of its own for its catalog and data. */
async function startWorker(name: string): Promise<KeelProcess> {
  const own = path.join(dir, name);
  await fs.mkdir(own, { recursive: true });
  return startWorkerProcess({ infra, keel, dir: own, catalog: catalogOf(), controls, instanceId });
}

async function follow(jobId: string): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  return events;
}

async function call(url: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${keel.baseUrl}${url}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${keel.token}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
}

/** Every file under a directory, relative, sorted: what a person (or list_files) finds in a working directory. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

/** A job's workspace after a level run, read through the API (the listing, then each file's bytes from the store). */
async function workspaceAt(jobId: string, levelId: string): Promise<Map<string, Buffer>> {
  const listing = await call(`/v1/jobs/${jobId}/files?at=${encodeURIComponent(levelId)}`);
  expect(listing.status).toBe(200);
  const body = (await listing.json()) as { files: Array<{ path: string; sha256: string; size_bytes: number }> };
  const files = new Map<string, Buffer>();
  for (const file of body.files) {
    const res = await call(
      `/v1/jobs/${jobId}/files/${encodeURIComponent(file.path)}?at=${encodeURIComponent(levelId)}`,
    );
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect({ path: file.path, sha256: sha256Hex(bytes), size: bytes.length }).toEqual({
      path: file.path,
      sha256: file.sha256,
      size: file.size_bytes,
    });
    files.set(file.path, bytes);
  }
  return files;
}

const finishedLevels = (events: EventEnvelope[]) =>
  events.filter((e) => e.kind === 'level_finished' && e.payload.ok === true).map((e) => String(e.payload.level_id));

/**
 * Every snapshot of a job, checked: one row per finished level run (no duplicate, none missing), and each manifest
 * whole: its own blob in the store and parsing to the same files as its rows, and every blob it names in the store.
 */
async function expectWholeSnapshots(jobId: string, levelIds: string[], blobs: FsBlobStore): Promise<void> {
  const { rows } = await infra.db.pool.query<{ level_run_id: string; manifest_sha256: string }>(
    'SELECT level_run_id, manifest_sha256 FROM level_run_snapshots WHERE job_id = $1 ORDER BY seq',
    [jobId],
  );
  expect(rows.map((r) => r.level_run_id)).toEqual(levelIds);
  for (const { manifest_sha256: manifest } of rows) {
    const entries = await manifestEntries(infra.db.pool, manifest);
    expect(new Set(entries.map((e) => e.path)).size).toBe(entries.length);
    const canonical = await blobs.get(manifest);
    expect(canonical).toBeDefined();
    expect(parseManifestBytes(manifest, canonical!).entries).toEqual(entries);
    for (const entry of entries)
      expect({ ...entry, stored: await blobs.has(entry.sha256) }).toMatchObject({ stored: true });
  }
}

/**
 * The drill's moment: once the retried snapshot opens the pipe for reading (this open waits for it), a plain file
 * with the same bytes takes the pipe's name, then the bytes go down the pipe. The snapshot reads them and goes on;
 * anything that opens `data/b.txt` afterwards opens the plain file.
 */
async function feedPipe(file: string, bytes: Buffer): Promise<void> {
  const writer = await fs.open(file, 'w');
  try {
    const plain = path.join(dir, `b.txt.${suffix}`);
    await fs.writeFile(plain, bytes);
    await fs.rename(plain, file);
    await writer.write(bytes);
  } finally {
    await writer.close();
  }
}

test('a job whose worker died mid-snapshot finishes on another; forks from that level run and the last are whole', async () => {
  const blobs = new FsBlobStore(defaultBlobDir(keel.workspaceRoot));
  const extra = new Map<string, Buffer>([
    ['data/a.txt', Buffer.from(`stored before the kill ${suffix}\n`)],
    ['data/b.txt', Buffer.from(`read through a pipe by the retried snapshot ${suffix}\n`)],
    ['data/c.bin', Buffer.from([0, 1, 2, 255, ...Buffer.from(suffix)])],
  ]);
  const submitted = await call('/v1/chat', {
    method: 'POST',
    body: { prompt: 'Write hello.md that greets the reader' },
  });
  expect(submitted.status).toBe(202);
  const { job_id: sourceId } = (await submitted.json()) as { job_id: string };
  const sourceEvents = follow(sourceId);

  // While the executor's model call is held, its workspace gains three files, the second of them a named pipe.
  await gate.reached;
  const workdir = path.join(keel.workspaceRoot, sourceId);
  for (const [file, bytes] of extra) {
    const target = path.join(workdir, file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (file === 'data/b.txt') {
      execFileSync('mkfifo', [target]);
      pipe = target;
    } else {
      await fs.writeFile(target, bytes);
    }
    await recordJobFile(infra.db.pool, sourceId, { path: file, sha256: sha256Hex(bytes), sizeBytes: bytes.length });
  }
  gate.release();

  // Half-way through the executor's snapshot: data/a.txt's blob stored, data/b.txt waited for, nothing recorded.
  await eventually(() => blobs.has(sha256Hex(extra.get('data/a.txt')!)), {
    what: "data/a.txt's blob, stored by the executor's snapshot",
    timeoutMs: 180_000,
  });
  expect(await blobs.has(sha256Hex(extra.get('data/b.txt')!))).toBe(false);
  expect(await blobs.has(sha256Hex(extra.get('data/c.bin')!))).toBe(false);
  const before = await infra.db.pool.query<{ level_run_id: string }>(
    'SELECT level_run_id FROM level_run_snapshots WHERE job_id = $1',
    [sourceId],
  );
  expect(before.rows.filter((r) => r.level_run_id.includes('L4.executor'))).toEqual([]);
  await workers[0]!.kill('SIGKILL');

  // A new worker process; its retry of the snapshot (once the killed attempt's heartbeat timed out) opens the pipe.
  workers.push(await startWorker('second'));
  feeding = feedPipe(pipe!, extra.get('data/b.txt')!);
  await feeding;
  feeding = undefined;

  const source = await sourceEvents;
  expect(source.at(-1)?.kind).toBe('final');
  const sourceLevels = finishedLevels(source);
  expect(sourceLevels).toHaveLength(8);
  const executor = sourceLevels.find((id) => id.includes('/L4.executor/'))!;
  const last = sourceLevels.at(-1)!;

  // The kill landed in the executor's snapshot: its one activity completed on a second attempt or later.
  const history = await infra.temporal.client.workflow.getHandle(executor).fetchHistory();
  const scheduled = new Map<string, string>();
  for (const e of history.events ?? []) {
    const attrs = e.activityTaskScheduledEventAttributes;
    if (attrs) scheduled.set(String(e.eventId), String(attrs.activityType?.name));
  }
  const snapshotAttempts = (history.events ?? [])
    .filter((e) => {
      const attrs = e.activityTaskStartedEventAttributes;
      return attrs && scheduled.get(String(attrs.scheduledEventId)) === 'snapshotWorkspace';
    })
    .map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1);
  expect(snapshotAttempts).toHaveLength(1);
  expect(snapshotAttempts[0]).toBeGreaterThanOrEqual(2);

  // The source's snapshots: one per level run, each manifest whole.
  await expectWholeSnapshots(sourceId, sourceLevels, blobs);
  // The interrupted one holds the executor's files: every file once, each with its own bytes.
  const hello = await fs.readFile(path.join(workdir, 'hello.md'));
  const expected = new Map([...extra, ['hello.md', hello]]);
  const atExecutor = await workspaceAt(sourceId, executor);
  expect([...atExecutor.keys()]).toEqual([...expected.keys()]);
  for (const [file, bytes] of expected) expect(atExecutor.get(file)).toEqual(bytes);
  expect(await workspaceAt(sourceId, last)).toEqual(atExecutor);

  // Fork from the interrupted level run, then from the last: each ends with exactly the source's files there.
  for (const from of [executor, last]) {
    const callsBefore = gate.requests();
    const forked = await call(`/v1/jobs/${sourceId}/fork`, { method: 'POST', body: { from: { level_run_id: from } } });
    expect(forked.status).toBe(202);
    const { job_id: forkId } = (await forked.json()) as { job_id: string };
    const events = await follow(forkId);
    expect(events.at(-1)?.kind).toBe('final');
    expect(events.filter((e) => e.kind === 'job_forked')).toHaveLength(1);
    const levels = finishedLevels(events);
    const carried = events.filter((e) => e.kind === 'level_finished' && e.payload.carried_over === true);
    expect(carried.map((e) => e.payload.source_level_id)).toEqual(
      sourceLevels.slice(0, sourceLevels.indexOf(from) + 1),
    );
    const carriedIds = new Set(carried.map((e) => String(e.payload.level_id)));
    const prompted = events.filter((e) => e.kind === 'prompt_sent').map((e) => String(e.payload.level_id));
    expect(prompted.filter((id) => carriedIds.has(id))).toEqual([]);
    // Every model call during the fork is one of its own level runs' (none at all from the last level run).
    expect(gate.requests() - callsBefore).toBe(prompted.length);
    if (from === last) expect(prompted).toEqual([]);

    // The fork's workspace at its carried fork point, and its working directory at the end: the same files, byte
    // for byte (the demo's later executors write hello.md with the same bytes), nothing else: no restore temporary.
    const forkPoint = from.replace(sourceId, forkId);
    expect(await workspaceAt(forkId, forkPoint)).toEqual(expected);
    const forkDir = path.join(keel.workspaceRoot, forkId);
    expect(await filesUnder(forkDir)).toEqual([...expected.keys()]);
    for (const [file, bytes] of expected) expect(await fs.readFile(path.join(forkDir, file))).toEqual(bytes);
    const { rows } = await infra.db.pool.query<{ path: string; sha256: string }>(
      'SELECT path, sha256 FROM job_files WHERE job_id = $1 ORDER BY path COLLATE "C"',
      [forkId],
    );
    expect(rows).toEqual([...expected].map(([file, bytes]) => ({ path: file, sha256: sha256Hex(bytes) })));
    await expectWholeSnapshots(forkId, levels, blobs);
  }

  // The store holds blobs only: no temporary of a write the kill interrupted.
  expect(
    (await filesUnder(defaultBlobDir(keel.workspaceRoot))).filter(
      (f) => !/^sha256\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(f),
    ),
  ).toEqual([]);
}, 600_000);
