import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createToken } from '../../db/tokens';
import type { EventEnvelope } from '../../events/envelope';
import { streamJobEvents } from '../../cli/event-stream';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { recordJobFile } from '../../db/files';
import { sha256Hex } from '../../snapshots/blob-store';
import { defaultBlobDir } from '../../snapshots/config';
import { restoreWorkspace } from '../../snapshots/restore-workspace';
import { snapshotWorkspace } from '../../snapshots/take-snapshot';
import { FsBlobStore } from '../../snapshots/fs-blob-store';
import type { RunningWorker } from '../../temporal/worker';
import { runJobToEnd, startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * Fork and compare through real demo jobs (docs/fork-and-compare.md): a fork carries over the source's level runs up
 * to the fork point without a model call (the demo model's request log says so), restores the workspace byte for
 * byte, runs on with its change, and says so in its events; compare shows the files and levels that differ.
 */
let infra: Infrastructure;
let demo: DemoModelServer;
let keel: KeelUnderTest;
let worker: RunningWorker;
let stranger: string;
const PROMPT = 'Write hello.md that greets the reader';
let source: { jobId: string; events: EventEnvelope[] };

beforeAll(async () => {
  infra = await startInfrastructure();
  demo = await startDemoModelServer();
  keel = await startKeel({ ...infra, demoBaseUrl: demo.baseUrl });
  worker = await keel.startWorker();
  stranger = (await createToken(infra.db.pool, { userId: 'other', orgId: 'org-other', isAdmin: false })).token;
  // Each model call of the source costs a cent (the demo model's #cost directive), so costs can be told apart.
  source = await runJobToEnd(keel, `${PROMPT} #cost=0.01`);
});

afterAll(async () => {
  await worker?.stop();
  await keel?.close();
  await demo?.close();
  await infra?.close();
});

interface ErrorBody {
  error: { code: string; message: string; missing?: Array<{ path: string; sha256: string }> };
}
interface Listing {
  files: Array<{ path: string; sha256: string; size_bytes: number }>;
}
interface FileSide {
  sha256: string;
  size_bytes: number;
}
interface Comparison {
  relation: string;
  identical_workspaces: boolean;
  files: Array<{
    path: string;
    change: string;
    a: FileSide | null;
    b: FileSide | null;
    binary: boolean;
    diff?: string;
  }>;
  levels: Array<{
    role: string;
    attempt: number;
    a: { cost_usd: number } | null;
    b: { carried_over: boolean; source_level_id: string | null; cost_usd: number } | null;
    cost_diff_usd: number | null;
  }>;
}
interface JobBody {
  model_tier: string | null;
  cost_usd: number;
  forked_from: { job_id: string; from_level_run_id: string | null } | null;
  forks: Array<{ job_id: string; from_level_run_id: string | null }>;
}
/** Loosely typed answers: each test reads the fields it checks through one of the interfaces above. */
type Body = Record<string, unknown> & Partial<ErrorBody>;

const call = async <T = Body>(url: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
  const res = await fetch(`${keel.baseUrl}${url}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.token ?? keel.token}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
};

/** The finished level runs of a job's events, in order. */
const finished = (events: EventEnvelope[]) =>
  events.filter((e) => e.kind === 'level_finished' && e.payload.ok === true);

/** A fork run to its end: its id, its events, and the model calls the demo model answered meanwhile. */
async function forkToEnd(jobId: string, body: Record<string, unknown>) {
  const before = demo.requests.length;
  const res = await call(`/v1/jobs/${jobId}/fork`, { method: 'POST', body });
  if (res.status !== 202) throw new Error(`fork answered ${res.status}: ${JSON.stringify(res.body)}`);
  const forkId = String(res.body.job_id);
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId: forkId })) {
    events.push(event);
  }
  return { accepted: res.body, forkId, events, modelCalls: demo.requests.length - before };
}

/** The workspace of a job at a level run: path → bytes, read from the blob store through the API. */
async function workspaceAt(jobId: string, levelId: string): Promise<Map<string, Buffer>> {
  const listing = await call(`/v1/jobs/${jobId}/files?at=${encodeURIComponent(levelId)}`);
  expect(listing.status).toBe(200);
  const files = new Map<string, Buffer>();
  for (const file of listing.body.files as Array<{ path: string }>) {
    const res = await fetch(
      `${keel.baseUrl}/v1/jobs/${jobId}/files/${encodeURIComponent(file.path)}?at=${encodeURIComponent(levelId)}`,
      { headers: { authorization: `Bearer ${keel.token}` } },
    );
    files.set(file.path, Buffer.from(await res.arrayBuffer()));
  }
  return files;
}

/** What a fork's events must say about what it carried over, and that the carried level runs made no model call. */
function expectCarried(fork: { forkId: string; events: EventEnvelope[]; modelCalls: number }, carried: string[]) {
  const forked = fork.events.filter((e) => e.kind === 'job_forked');
  expect(forked).toHaveLength(1);
  expect(forked[0]!.payload).toMatchObject({ source_job_id: source.jobId, carried_level_ids: carried });
  // job_forked comes before any level of the fork.
  expect(fork.events.findIndex((e) => e.kind === 'job_forked')).toBeLessThan(
    fork.events.findIndex((e) => e.kind === 'level_started'),
  );
  const levels = finished(fork.events);
  const carriedLevels = levels.filter((e) => e.payload.carried_over === true);
  expect(carriedLevels.map((e) => e.payload.source_level_id)).toEqual(carried);
  // The carried ones come first and are the fork's own level runs of the same role and attempt.
  expect(levels.slice(0, carried.length)).toEqual(carriedLevels);
  for (const level of carriedLevels) {
    expect(String(level.payload.level_id).replace(fork.forkId, source.jobId)).toBe(level.payload.source_level_id);
  }
  const carriedIds = new Set(carriedLevels.map((e) => String(e.payload.level_id)));
  const calledFrom = fork.events.filter((e) => e.kind === 'prompt_sent').map((e) => String(e.payload.level_id));
  expect(calledFrom.filter((id) => carriedIds.has(id))).toEqual([]);
  // Every model call the demo model answered during the fork is one of the fork's own prompt_sent.
  expect(fork.modelCalls).toBe(calledFrom.length);
  expect(fork.events.at(-1)!.kind).toBe('final');
}

test('a fork at each level run of a default job carries the runs up to it over, without a model call', async () => {
  const levels = finished(source.events).map((e) => String(e.payload.level_id));
  expect(levels).toHaveLength(8);
  const sourceCalls = source.events.filter((e) => e.kind === 'prompt_sent').length;
  for (const [index, levelId] of levels.entries()) {
    const fork = await forkToEnd(source.jobId, { from: { level_run_id: levelId } });
    expect(fork.accepted).toMatchObject({
      source_job_id: source.jobId,
      from_level_run_id: levelId,
      carried_level_ids: levels.slice(0, index + 1),
      status: 'queued',
    });
    expectCarried(fork, levels.slice(0, index + 1));
    // The fork ran the same levels: the carried ones plus the rest, and exactly the model calls of the rest.
    expect(finished(fork.events)).toHaveLength(8);
    const carriedIds = new Set(levels.slice(0, index + 1));
    const carriedCalls = source.events.filter(
      (e) => e.kind === 'prompt_sent' && carriedIds.has(String(e.payload.level_id)),
    ).length;
    expect(fork.modelCalls).toBe(sourceCalls - carriedCalls);

    // The workspace at the fork point, restored byte for byte: the fork's carried last level run reads the same
    // bytes as the source's, and its working directory holds them unless a later level of the fork rewrote them.
    const forkPoint = `${fork.forkId}/${levelId.slice(source.jobId.length + 1)}`;
    const original = await workspaceAt(source.jobId, levelId);
    expect(await workspaceAt(fork.forkId, forkPoint)).toEqual(original);
    const rewritten = new Set(fork.events.filter((e) => e.kind === 'file_created').map((e) => e.payload.path));
    for (const [file, bytes] of original) {
      if (rewritten.has(file)) continue;
      expect((await fs.readFile(path.join(keel.workspaceRoot, fork.forkId, file))).equals(bytes)).toBe(true);
    }

    // Findable from both jobs; the fork's own cost (what the ledger and budgets count) is its own calls' only.
    const forkJob = await call<JobBody>(`/v1/jobs/${fork.forkId}`);
    expect(forkJob.body.cost_usd).toBeCloseTo(0.01 * fork.modelCalls, 6);
    expect(forkJob.body.forked_from).toMatchObject({ job_id: source.jobId, from_level_run_id: levelId });
    const described = await infra.temporal.client.workflow.getHandle(fork.forkId).describe();
    expect(described.memo).toMatchObject({ forked_from: { job_id: source.jobId, level_run_id: levelId } });
    if (index === levels.length - 1) {
      // Nothing left to run: not one model call, the same files, and costs copied over.
      expect(fork.modelCalls).toBe(0);
      const plain = await call<Listing>(`/v1/jobs/${fork.forkId}/files`);
      const sourceFiles = await call<Listing>(`/v1/jobs/${source.jobId}/files`);
      expect(plain.body.files.map((f) => [f.path, f.sha256])).toEqual(
        sourceFiles.body.files.map((f) => [f.path, f.sha256]),
      );
      const final = (events: EventEnvelope[]) => events.at(-1)!.payload;
      expect(final(source.events).cost_usd).toBeCloseTo(0.01 * sourceCalls, 6);
      expect(final(fork.events).cost_usd).toBe(final(source.events).cost_usd);
      expect(final(fork.events).carried_cost_usd).toBe(final(source.events).cost_usd);
      expect(final(fork.events).created_files).toEqual(final(source.events).created_files);
    }
  }
  const sourceJob = await call<JobBody>(`/v1/jobs/${source.jobId}`);
  expect(sourceJob.body.forked_from).toBeNull();
  expect(sourceJob.body.forks.map((f) => f.from_level_run_id)).toEqual(levels);
});

test('a fork by event sequence starts after the last level run finished by then; sequence 0 replays from the start', async () => {
  const third = finished(source.events)[2]!;
  const fork = await forkToEnd(source.jobId, { from: { sequence: third.sequence + 1 } });
  const levels = finished(source.events).map((e) => String(e.payload.level_id));
  expect(fork.accepted.from_level_run_id).toBe(levels[2]);
  expectCarried(fork, levels.slice(0, 3));
  expect(fork.events.find((e) => e.kind === 'job_forked')!.payload.from_sequence).toBe(third.sequence + 1);

  const replay = await forkToEnd(source.jobId, { from: { sequence: 0 }, prompt_patch: 'Write hello.md with a list' });
  expect(replay.accepted).toMatchObject({ from_level_run_id: null, carried_level_ids: [] });
  expectCarried(replay, []);
  expect(replay.events.find((e) => e.kind === 'job_forked')!.payload).toMatchObject({
    prompt_patched: true,
    manifest_sha256: null,
  });
});

test('a fork inside a failed verification, with another model tier, retries the executor; compare shows it', async () => {
  const failing = await runJobToEnd(keel, `${PROMPT} #verify-fail=1`);
  source = failing;
  const failed = finished(failing.events).find((e) => e.payload.verdict === 'fail')!;
  expect(failed.payload.level_id).toBe(`${failing.jobId}/L3.verifier/1`);
  const levels = finished(failing.events).map((e) => String(e.payload.level_id));
  const upTo = levels.slice(0, levels.indexOf(String(failed.payload.level_id)) + 1);

  const fork = await forkToEnd(failing.jobId, { from: { level_run_id: failed.payload.level_id }, model_tier: 'cheap' });
  expectCarried(fork, upTo);
  expect(fork.events.find((e) => e.kind === 'job_forked')!.payload.model_tier).toBe('cheap');
  // The gate sends the failed attempt back to the executor, which runs anew (attempt 2), and the verifier passes it.
  const retry = fork.events.find((e) => e.kind === 'gate_decision' && e.payload.decision === 'retry')!;
  expect(retry.payload.level_id).toBe(`${fork.forkId}/L3.verifier/1`);
  const executor2 = finished(fork.events).find((e) => e.payload.level_id === `${fork.forkId}/L4.executor/2`)!;
  expect(executor2.payload.carried_over).toBeUndefined();
  expect((await call<JobBody>(`/v1/jobs/${fork.forkId}`)).body.model_tier).toBe('cheap');

  const compared = await call<Comparison>(`/v1/jobs/${failing.jobId}/compare/${fork.forkId}`);
  expect(compared.status).toBe(200);
  expect(compared.body).toMatchObject({
    relation: 'b_forked_from_a',
    a: { job_id: failing.jobId, forked_from: null, carried_level_ids: [] },
    b: {
      job_id: fork.forkId,
      forked_from: { job_id: failing.jobId, level_run_id: failed.payload.level_id },
      carried_level_ids: upTo.map((id) => id.replace(failing.jobId, fork.forkId)),
    },
  });
  expect(compared.body.files).toEqual(expect.any(Array));
  const rows = compared.body.levels;
  for (const id of upTo) {
    const [role, attempt] = id.slice(failing.jobId.length + 1).split('/');
    const row = rows.find((r) => r.role === role && r.attempt === Number(attempt))!;
    expect(row.b).toMatchObject({ carried_over: true, source_level_id: id, cost_usd: row.a!.cost_usd });
    expect(row.cost_diff_usd).toBe(0);
  }
  // The same comparison the other way round.
  const reversed = await call<Comparison>(`/v1/jobs/${fork.forkId}/compare/${failing.jobId}`);
  expect(reversed.body.relation).toBe('a_forked_from_b');
});

test('compare lists added, removed and changed files with a unified diff for text and sizes for binary', async () => {
  const first = await runJobToEnd(keel, PROMPT);
  source = first;
  const levels = finished(first.events).map((e) => String(e.payload.level_id));
  // From the first level run (before any file), with a prompt that makes the demo executor write another file.
  const fork = await forkToEnd(first.jobId, {
    from: { level_run_id: levels[0] },
    prompt_patch: 'Write notes.md listing three facts about snapshots',
  });
  expect(fork.events.at(-1)!.kind).toBe('final');
  const lastOwn = finished(fork.events).at(-1)!.payload.level_id as string;
  // As the fork left it: notes.md added, hello.md (the source's) not there.
  const asLeft = await call<Comparison>(`/v1/jobs/${first.jobId}/compare/${fork.forkId}`);
  expect(asLeft.body.files.map((f) => [f.path, f.change])).toEqual([
    ['hello.md', 'removed'],
    ['notes.md', 'added'],
  ]);
  expect(asLeft.body.files[0]).toMatchObject({ b: null, binary: false });
  expect(asLeft.body.files[0]!.a!.size_bytes).toBeGreaterThan(0);
  // Then a text file rewritten and a binary file added in the fork's workspace, snapshotted under a level run of its
  // own (as a further level of the fork would): compare reads the latest snapshot.
  const dir = path.join(keel.workspaceRoot, fork.forkId);
  const binary = Buffer.from([0, 1, 2, 3, 255, 254]);
  const text = Buffer.from('# Hello\n\nA changed greeting.\n');
  for (const [file, bytes] of [
    ['image.bin', binary],
    ['hello.md', text],
  ] as const) {
    await fs.writeFile(path.join(dir, file), bytes);
    await recordJobFile(infra.db.pool, fork.forkId, { path: file, sha256: sha256Hex(bytes), sizeBytes: bytes.length });
  }
  const blobStore = new FsBlobStore(defaultBlobDir(keel.workspaceRoot));
  await snapshotWorkspace(
    { pool: infra.db.pool, workspaceRoot: keel.workspaceRoot, blobs: blobStore },
    { jobId: fork.forkId, levelRunId: `${fork.forkId}/L9.test/1` },
  );
  const compared = await call<Comparison>(`/v1/jobs/${first.jobId}/compare/${fork.forkId}`);
  expect(compared.status).toBe(200);
  const files = compared.body.files;
  expect(files.map((f) => [f.path, f.change])).toEqual([
    ['hello.md', 'changed'],
    ['image.bin', 'added'],
    ['notes.md', 'added'],
  ]);
  const hello = files[0]!;
  expect(hello).toMatchObject({ binary: false, b: { size_bytes: text.length } });
  expect(hello.diff).toContain('--- a/hello.md');
  expect(hello.diff).toContain('+++ b/hello.md');
  expect(hello.diff).toMatch(/^-Hello, reader/m);
  expect(hello.diff).toMatch(/^\+A changed greeting\./m);
  expect(files[1]).toMatchObject({ binary: true, a: null, b: { size_bytes: 6 }, size_diff_bytes: 6 });
  expect(files[1]!.diff).toBeUndefined();
  expect(compared.body.identical_workspaces).toBe(false);
  // The other way round, what was added is removed; `a_at` compares the fork as its own last level left it.
  const back = await call<Comparison>(`/v1/jobs/${fork.forkId}/compare/${first.jobId}`);
  expect(back.body.files.find((f) => f.path === 'image.bin')).toMatchObject({ change: 'removed', b: null });
  const atLevel = await call<Comparison>(
    `/v1/jobs/${fork.forkId}/compare/${first.jobId}?a_at=${encodeURIComponent(lastOwn)}`,
  );
  expect(atLevel.body.files.map((f) => [f.path, f.change])).toEqual([
    ['hello.md', 'added'],
    ['notes.md', 'removed'],
  ]);
  // A job compared with itself: nothing differs.
  const same = await call<Comparison>(`/v1/jobs/${first.jobId}/compare/${first.jobId}`);
  expect(same.body).toMatchObject({ relation: 'same_job', identical_workspaces: true, files: [] });
});

test('fork and compare are scoped like every job route, and bad input is a 4xx with the error envelope', async () => {
  const levelId = String(finished(source.events)[1]!.payload.level_id);
  const error = (res: { status: number; body: Body }, status: number, code?: string) => {
    expect(res.status).toBe(status);
    expect(res.body.error?.message).toEqual(expect.any(String));
    if (code) expect(res.body.error?.code).toBe(code);
  };
  const fork = (body: unknown, token?: string) =>
    call(`/v1/jobs/${source.jobId}/fork`, { method: 'POST', body, token });
  // Another org's job does not exist for the caller: fork and compare both 404.
  error(await fork({ from: { level_run_id: levelId } }, stranger), 404, 'not_found');
  error(await call(`/v1/jobs/${source.jobId}/compare/${source.jobId}`, { token: stranger }), 404);
  // The stranger's own job compared with one it cannot see, either way round: 404.
  const own = await call<{ job_id: string }>('/v1/chat', { method: 'POST', body: { prompt: 'hi' }, token: stranger });
  for await (const _event of streamJobEvents({ baseUrl: keel.baseUrl, token: stranger, jobId: own.body.job_id })) {
    // read to the end, so the job is done before the suite stops
  }
  error(await call(`/v1/jobs/${own.body.job_id}/compare/${source.jobId}`, { token: stranger }), 404);
  error(await call(`/v1/jobs/${source.jobId}/compare/${own.body.job_id}`, { token: stranger }), 404);
  error(await fork({ from: { sequence: 0 } }, stranger), 404);
  // Bad bodies.
  for (const body of [
    {},
    { from: {} },
    { from: { level_run_id: levelId, sequence: 3 } },
    { from: { sequence: -1 } },
    { from: { sequence: 1.5 } },
    { from: { level_run_id: '' } },
    { from: { level_run_id: `${levelId}\u0001` } },
    { from: { level_run_id: levelId }, prompt_patch: '   ' },
    { from: { level_run_id: levelId }, model_tier: 'enormous' },
    { from: { level_run_id: levelId }, surprise: true },
    'not an object',
  ]) {
    error(await fork(body), 400);
  }
  error(await fork({ from: { sequence: 1_000_000 } }), 400, 'sequence_out_of_range');
  // A level run that is not this job's, or never ran.
  error(await fork({ from: { level_run_id: `${source.jobId}/L4.executor/99` } }), 404, 'level_run_not_found');
  error(await call(`/v1/jobs/${source.jobId}/compare/job-nope`), 404);
  error(
    await call(`/v1/jobs/${source.jobId}/compare/${source.jobId}?a_at=${encodeURIComponent('nope/L1/1')}`),
    404,
    'level_run_not_found',
  );
});

test('a fork whose blobs are gone is refused with 409 naming them, and creates nothing', async () => {
  const gone = await runJobToEnd(keel, 'Write gone.md about lost blobs');
  const last = finished(gone.events).at(-1)!.payload.level_id as string;
  const listing = await call<Listing>(`/v1/jobs/${gone.jobId}/files?at=${encodeURIComponent(last)}`);
  const file = listing.body.files[0]!;
  await new FsBlobStore(defaultBlobDir(keel.workspaceRoot)).delete(file.sha256);
  const count = async () =>
    Number((await infra.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM job_runs')).rows[0]!.n);
  const before = await count();
  const refused = await call<ErrorBody>(`/v1/jobs/${gone.jobId}/fork`, {
    method: 'POST',
    body: { from: { level_run_id: last } },
  });
  expect(refused.status).toBe(409);
  expect(refused.body.error.code).toBe('blobs_missing');
  expect(refused.body.error.message).toContain(file.path);
  expect(refused.body.error.message).toContain(file.sha256);
  expect(refused.body.error.missing).toEqual([expect.objectContaining({ path: file.path, sha256: file.sha256 })]);
  expect(await count()).toBe(before);
  expect((await call<JobBody>(`/v1/jobs/${gone.jobId}`)).body.forks).toEqual([]);
  // A fork from before the file was written needs no blob of it.
  const first = finished(gone.events)[0]!.payload.level_id as string;
  const early = await forkToEnd(gone.jobId, { from: { level_run_id: first } });
  expect(early.events.at(-1)!.kind).toBe('final');
});

test('keel fork and keel compare, as a person runs them', async () => {
  const levels = finished(source.events).map((e) => String(e.payload.level_id));
  const verifier = levels.find((id) => id.includes('/L3.verifier/'))!;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-cli-'));
  const keelRun = (args: string[]) => {
    const child = spawn(
      process.execPath,
      [path.join(__dirname, 'ts-entry.js'), path.join(__dirname, '..', '..', 'cli', 'keel.ts'), ...args],
      {
        env: { PATH: process.env.PATH, KEEL_API_URL: keel.baseUrl, KEEL_TOKEN: keel.token, DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.once('close', (code) => resolve({ code, stdout, stderr })),
    );
  };
  try {
    // `--from` as the role and attempt alone; `--watch --json` follows the fork to its end, one event a line.
    const short = verifier.slice(source.jobId.length + 1);
    const forked = await keelRun([
      'fork',
      source.jobId,
      '--from',
      short,
      '--tier',
      'cheap',
      '--budget',
      '4',
      '--watch',
      '--json',
    ]);
    expect(forked.code).toBe(0);
    const events = forked.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as EventEnvelope);
    expect(events.at(-1)!.kind).toBe('final');
    const forkedEvent = events.find((e) => e.kind === 'job_forked')!;
    expect(forkedEvent.payload).toMatchObject({ source_job_id: source.jobId, model_tier: 'cheap' });
    const forkId = forkedEvent.job_id;
    // `--budget` is the fork's own ceiling, which its levels are told.
    const ceilings = events.filter((e) => e.kind === 'budget_consumed').map((e) => e.payload.limit_usd);
    expect(ceilings.length).toBeGreaterThan(0);
    expect(new Set(ceilings)).toEqual(new Set([4]));

    const compared = await keelRun(['compare', source.jobId, forkId]);
    expect(compared.code).toBe(0);
    expect(compared.stdout).toContain('relation: b_forked_from_a');
    expect(compared.stdout).toContain(`${short}`);
    expect(compared.stdout).toContain('(carried over in b)');
    const json = await keelRun(['compare', source.jobId, forkId, '--json']);
    expect((JSON.parse(json.stdout) as Comparison).relation).toBe('b_forked_from_a');

    // A fork point that is neither a level run nor a sequence, and a job the caller cannot see: refused, exit non-zero.
    const bad = await keelRun(['fork', source.jobId, '--from', 'yesterday']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--from');
    const unknown = await keelRun(['fork', 'job-nope', '--from', '0']);
    expect(unknown.code).not.toBe(0);
    const budget = await keelRun(['fork', source.jobId, '--from', '0', '--budget', 'lots']);
    expect(budget.code).not.toBe(0);
    expect(budget.stderr).toContain('--budget');
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test('restoring again after a worker died half-way puts the manifest back byte for byte', async () => {
  // The fork at the source's last level run, from the first test: its working directory is the fork point's manifest.
  const { rows } = await infra.db.pool.query<{ job_id: string; from_level_run_id: string }>(
    `SELECT job_id, from_level_run_id FROM job_forks WHERE source_job_id = $1 ORDER BY created_at DESC LIMIT 1`,
    [source.jobId],
  );
  const forkId = rows[0]!.job_id;
  const { rows: snaps } = await infra.db.pool.query<{ manifest_sha256: string }>(
    'SELECT manifest_sha256 FROM level_run_snapshots WHERE level_run_id = $1',
    [rows[0]!.from_level_run_id],
  );
  const manifestSha256 = snaps[0]!.manifest_sha256;
  const listing = await call<Listing>(
    `/v1/jobs/${source.jobId}/files?at=${encodeURIComponent(rows[0]!.from_level_run_id)}`,
  );
  expect(listing.body.files.length).toBeGreaterThan(0);
  const dir = path.join(keel.workspaceRoot, forkId);
  // What a killed attempt may leave: a torn file, a missing one, a temporary file of its own.
  const [torn] = listing.body.files;
  await fs.writeFile(path.join(dir, torn!.path), 'half of it');
  const leftover = `${torn!.path}.0b5e8a8e-52d4-4c55-9a3b-3f2f5f0e6c11.restore`;
  await fs.writeFile(path.join(dir, leftover), 'temporary');
  for (const file of listing.body.files.slice(1)) await fs.rm(path.join(dir, file.path), { force: true });
  const restored = await restoreWorkspace(
    {
      pool: infra.db.pool,
      workspaceRoot: keel.workspaceRoot,
      blobs: new FsBlobStore(defaultBlobDir(keel.workspaceRoot)),
    },
    { jobId: forkId, manifestSha256 },
  );
  expect(restored.files).toBe(listing.body.files.length);
  for (const file of listing.body.files) {
    expect(sha256Hex(await fs.readFile(path.join(dir, file.path)))).toBe(file.sha256);
  }
  // The killed attempt's temporary is gone: no file the manifest does not name is left of it.
  expect((await fs.readdir(dir)).filter((name) => name.endsWith('.restore'))).toEqual([]);
});
