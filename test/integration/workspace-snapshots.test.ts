import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createToken } from '../../db/tokens';
import type { EventEnvelope } from '../../events/envelope';
import { defaultBlobDir } from '../../snapshots/config';
import { FsBlobStore } from '../../snapshots/fs-blob-store';
import { BLOB_GC_SCHEDULE_ID, ensureBlobGcSchedule } from '../../temporal/blob-gc-schedule';
import type { RunningWorker } from '../../temporal/worker';
import type { collectWorkspaceBlobs } from '../../workflows/collect-blobs';
import type { LevelResult } from '../../workflows/definitions';
import { eventually } from './eventually';
import { runJobToEnd, startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * Workspace snapshots through a real demo job (docs/workspace-snapshots.md): every level run ends with a manifest,
 * `GET /v1/jobs/:id/files?at=<level_id>` lists the files as they stood then and serves their bytes from the blob
 * store, two jobs writing the same bytes share one blob, and the scheduled collection keeps every blob a manifest
 * names while deleting old unreferenced ones.
 */
let infra: Infrastructure;
let keel: KeelUnderTest;
let worker: RunningWorker;
let blobs: FsBlobStore;
let stranger: string;
let member: string;
const PROMPT = 'Write hello.md that greets the reader';
let first: { jobId: string; events: EventEnvelope[] };

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  worker = await keel.startWorker();
  blobs = new FsBlobStore(defaultBlobDir(keel.workspaceRoot));
  stranger = (await createToken(infra.db.pool, { userId: 'other', orgId: 'org-other', isAdmin: false })).token;
  member = (await createToken(infra.db.pool, { userId: 'member', orgId: 'org-test', isAdmin: false })).token;
  first = await runJobToEnd(keel, PROMPT);
});

afterAll(async () => {
  await worker?.stop();
  await keel?.close();
  await infra?.close();
});

const get = (url: string, token = keel.token) =>
  fetch(`${keel.baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
const filesUrl = (jobId: string, at?: string) =>
  `/v1/jobs/${jobId}/files${at === undefined ? '' : `?at=${encodeURIComponent(at)}`}`;
const fileUrl = (jobId: string, file: string, at: string) =>
  `/v1/jobs/${jobId}/files/${file.split('/').map(encodeURIComponent).join('/')}?at=${encodeURIComponent(at)}`;

interface Listing {
  files: Array<{ path: string; sha256: string; size_bytes: number }>;
  snapshot?: { level_run_id: string; manifest_sha256: string; file_count: number; total_bytes: number };
}

/** Each finished level run with the files written by then: the last `file_created` of each path before it. */
function expectedByLevel(events: EventEnvelope[]): Array<{ levelId: string; files: Map<string, string> }> {
  const files = new Map<string, string>();
  const levels: Array<{ levelId: string; files: Map<string, string> }> = [];
  for (const event of events) {
    const { payload } = event;
    if (event.kind === 'file_created') files.set(String(payload.path), String(payload.sha256));
    if (event.kind === 'level_finished' && payload.ok === true) {
      levels.push({ levelId: String(payload.level_id), files: new Map(files) });
    }
  }
  return levels;
}

test('every level run of a demo job has a snapshot listing exactly the files written by then', async () => {
  const { jobId, events } = first;
  expect(events.at(-1)!.kind).toBe('final');
  const levels = expectedByLevel(events);
  // build (L1, L2, L4, L3) chained to review (L2, L4, L3, L2 composed in code).
  expect(levels).toHaveLength(8);
  const contents = new Set<string>();
  for (const { levelId, files } of levels) {
    const res = await get(filesUrl(jobId, levelId));
    expect(res.status).toBe(200);
    const listing = (await res.json()) as Listing;
    expect(Object.fromEntries(listing.files.map((f) => [f.path, f.sha256]))).toEqual(Object.fromEntries(files));
    expect(listing.snapshot).toMatchObject({ level_run_id: levelId, file_count: files.size });
    // The level's durable result records the same manifest.
    const result = (await infra.temporal.client.workflow.getHandle(levelId).result()) as LevelResult;
    expect(result.snapshot).toEqual({
      manifestSha256: listing.snapshot!.manifest_sha256,
      files: files.size,
      bytes: listing.snapshot!.total_bytes,
    });
    // Each file at that point: its bytes from the blob store, whatever the working directory holds now.
    for (const file of listing.files) {
      const read = await get(fileUrl(jobId, file.path, levelId));
      expect(read.status).toBe(200);
      const bytes = Buffer.from(await read.arrayBuffer());
      expect(sha256(bytes)).toBe(file.sha256);
      expect(bytes.length).toBe(file.size_bytes);
      contents.add(file.sha256);
    }
  }
  // The levels before the first executor saw an empty workspace; each executor wrote the demo file.
  expect(levels[0]!.files.size).toBe(0);
  expect(levels.at(-1)!.files.size).toBe(1);
  expect(contents.size).toBe(1);

  // The working directory is the materialisation of the latest manifest: the plain listing and the last level's agree.
  const latest = (await (await get(filesUrl(jobId))).json()) as Listing;
  const lastLevel = levels.at(-1)!.levelId;
  const atLast = (await (await get(filesUrl(jobId, lastLevel))).json()) as Listing;
  expect(atLast.files).toEqual(latest.files);
  const [file] = latest.files;
  const onDisk = path.join(keel.workspaceRoot, jobId, file!.path);
  const written = await fs.readFile(onDisk);
  expect(sha256(written)).toBe(file!.sha256);

  // Reading at a level run never touches the working directory: were it to change now, the snapshot still serves
  // the bytes that level run left.
  await fs.writeFile(onDisk, 'changed after the job');
  const read = await get(fileUrl(jobId, file!.path, lastLevel));
  expect(Buffer.from(await read.arrayBuffer()).equals(written)).toBe(true);
  await fs.writeFile(onDisk, written);
});

test('two jobs that write the same bytes store them once', async () => {
  const before = new Set<string>();
  for await (const blob of blobs.list()) before.add(blob.sha256);
  const second = await runJobToEnd(keel, PROMPT);
  expect(second.events.at(-1)!.kind).toBe('final');
  const firstFiles = (await (await get(filesUrl(first.jobId))).json()) as Listing;
  const secondFiles = (await (await get(filesUrl(second.jobId))).json()) as Listing;
  expect(secondFiles.files.map((f) => f.sha256)).toEqual(firstFiles.files.map((f) => f.sha256));
  const after: string[] = [];
  for await (const blob of blobs.list()) after.push(blob.sha256);
  // Same files, same manifests: the second job added no blob at all.
  expect(after.sort()).toEqual([...before].sort());
  const { rows } = await infra.db.pool.query<{ jobs: string }>(
    `SELECT count(DISTINCT s.job_id) AS jobs FROM level_run_snapshots s
       JOIN workspace_manifest_files f USING (manifest_sha256)
      WHERE f.sha256 = $1 AND s.job_id = ANY($2)`,
    [secondFiles.files[0]!.sha256, [first.jobId, second.jobId]],
  );
  expect(Number(rows[0]!.jobs)).toBe(2);
});

test('?at= is scoped like every job file route, and bad input is a 4xx with the error envelope', async () => {
  const { jobId, events } = first;
  const [firstLevel, , executor] = expectedByLevel(events);
  const hello = [...executor!.files.keys()][0]!;
  const error = async (res: Response, status: number, code?: string) => {
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.message).toEqual(expect.any(String));
    if (code) expect(body.error.code).toBe(code);
    return body.error;
  };
  // Another org's job does not exist for the caller, at any level run; a member of the job's org sees it.
  await error(await get(filesUrl(jobId, executor!.levelId), stranger), 404);
  await error(await get(fileUrl(jobId, hello, executor!.levelId), stranger), 404);
  expect((await get(filesUrl(jobId, executor!.levelId), member)).status).toBe(200);
  // A level run that is not this job's, or never ran: 404 level_run_not_found, naming what to pass instead.
  const other = await runJobToEnd(keel, 'Write notes.md about snapshots');
  const foreign = expectedByLevel(other.events)[0]!.levelId;
  const refused = await error(await get(filesUrl(jobId, foreign)), 404, 'level_run_not_found');
  expect(refused.message).toContain('level_finished');
  await error(await get(filesUrl(jobId, `${jobId}/L4.executor/99`)), 404, 'level_run_not_found');
  await error(await get(fileUrl(jobId, hello, `${jobId}/L4.executor/99`)), 404, 'level_run_not_found');
  // A file the workspace did not have yet at that level run.
  await error(await get(fileUrl(jobId, hello, firstLevel!.levelId)), 404);
  // Bad values of `at`: empty, too long, control characters.
  await error(await get(`/v1/jobs/${jobId}/files?at=`), 400);
  await error(await get(filesUrl(jobId, 'x'.repeat(301))), 400);
  await error(await get(filesUrl(jobId, `${jobId}/L4.executor/1\u0001`)), 400);
  await error(await get(`${fileUrl(jobId, hello, executor!.levelId)}&download=maybe`), 400);
  // A path that leaves the workspace is no file at any level run.
  await error(await get(`/v1/jobs/${jobId}/files/..%2Fsecret?at=${encodeURIComponent(executor!.levelId)}`), 404);
});

test('collection keeps every blob a manifest names and deletes an old unreferenced one, on its schedule', async () => {
  const old = new Date(Date.now() - 48 * 3_600_000);
  const blobFile = (sha: string) => path.join(defaultBlobDir(keel.workspaceRoot), 'sha256', sha.slice(0, 2), sha);
  const age = async (sha: string) => fs.utimes(blobFile(sha), old, old);
  // Every blob stored so far is made old: only references keep them now.
  const referenced: string[] = [];
  for await (const blob of blobs.list()) {
    referenced.push(blob.sha256);
    await age(blob.sha256);
  }
  const orphan = await blobs.put(Buffer.from('an orphan nobody references'));
  await age(orphan);
  const fresh = await blobs.put(Buffer.from('an orphan stored a moment ago'));
  // Temporaries as `put` leaves them when its writer dies between writing and renaming (a worker killed
  // mid-snapshot): an old one is litter, a young one may be a write in flight.
  const temporaryOf = (sha: string) => `${blobFile(sha)}.${crypto.randomUUID()}.tmp`;
  const deadWrite = temporaryOf(sha256(Buffer.from('a write whose worker died')));
  const inFlight = temporaryOf(sha256(Buffer.from('a write in flight')));
  for (const file of [deadWrite, inFlight]) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, 'partial');
  }
  await fs.utimes(deadWrite, old, old);

  const report = await infra.temporal.client.workflow.execute<typeof collectWorkspaceBlobs>('collectWorkspaceBlobs', {
    taskQueue: keel.taskQueue,
    workflowId: `gc-${crypto.randomUUID()}`,
    args: [{ retentionHours: 24 }],
  });
  expect(report).toMatchObject({ deleted: 1, referenced: referenced.length, young: 1, temporaries: 1 });
  expect(await blobs.has(orphan)).toBe(false);
  expect(await blobs.has(fresh)).toBe(true);
  await expect(fs.access(deadWrite)).rejects.toThrow();
  await fs.access(inFlight);
  // A temporary is never listed as a blob, whatever its age.
  for await (const blob of blobs.list()) expect(blob.sha256).toMatch(/^[0-9a-f]{64}$/);
  await fs.rm(inFlight);
  for (const sha of referenced) expect(await blobs.has(sha)).toBe(true);
  // Every blob any manifest names (file or manifest) is still there, and readable at every level run.
  const { rows } = await infra.db.pool.query<{ sha256: string }>(
    'SELECT sha256 FROM workspace_manifest_files UNION SELECT manifest_sha256 FROM workspace_manifests',
  );
  for (const { sha256: sha } of rows) expect(await blobs.has(sha)).toBe(true);

  // The same collection on its schedule, as the worker creates it: triggered now, it takes the next old orphan.
  const second = await blobs.put(Buffer.from('another orphan'));
  await age(second);
  await ensureBlobGcSchedule(infra.temporal.client, {
    taskQueue: keel.taskQueue,
    settings: { enabled: false, cron: '17 3 * * *', retentionHours: 24 },
  });
  const schedule = infra.temporal.client.schedule.getHandle(BLOB_GC_SCHEDULE_ID);
  try {
    expect((await schedule.describe()).state.paused).toBe(true);
    await schedule.trigger();
    await eventually(async () => !(await blobs.has(second)), { what: 'the scheduled collection to delete the orphan' });
    for (const sha of referenced) expect(await blobs.has(sha)).toBe(true);
  } finally {
    await schedule.delete();
  }
});
