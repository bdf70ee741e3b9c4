// Fair scheduling between tenants (docs/scheduling.md, issue 36 item 3): how long org B's jobs wait behind org A's
// backlog, with the fair share on and off (JOB_SCHEDULING_FAIR), in one run on one Temporal dev server. Nothing is
// asserted. Each mode gets its own throwaway schema and its own API and worker processes (dist/stack/api-main.js and
// worker-main.js, production shape) on a task queue of its own, with JOB_SCHEDULING=true and JOB_SLOTS_TOTAL=--slots:
//   1. org A submits --a default demo jobs (POST /v1/chat); the bench waits until every one of them has its slot row
//      (claimed a slot or queued), so A's backlog is in place;
//   2. org B submits --b jobs;
//   3. B's wait, per job: from the bench's POST /v1/chat (its clock) to the job's first `level_started` event
//      (`occurred_at`), and, server side, its slot row's enqueued_at to granted_at (the grant).
// The reference figures: "one job's start time" is A's first job's submit to its first `level_started` (a free
// slot, nothing queued), "one slot's turnover" is p50 of granted_at to released_at of A's jobs that ended in the mode.
// A mode ends once every B job has started a level; the jobs still queued are left to teardown (its server is stopped).
// Needs PostgreSQL (BENCH_POSTGRES_DSN) and Redis (BENCH_REDIS_URL).
// Run: npm run build && node dist/bench/fairness.js [--a=40] [--b=10] [--slots=4] [--timeout=3600 s per mode] [--json]  (issue 36: --a=300)
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import { createToken } from '../db/tokens';
import { queueKeyPrefix } from '../queue/create-queue-store';
import { findTemporalCli } from '../temporal/cli-path';
import { startDevServer } from '../temporal/dev-server';
import { freePort, startKeelProcess, waitHealthy } from './keel-processes';
import { param, percentile, printJson } from './measure';
import { deleteKeys } from './redis-keys';
import { runBench, Teardown } from './run-bench';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PROMPT = 'Write hello.md that greets the reader';
const A = param('a', 40);
const B = param('b', 10);
const SLOTS = param('slots', 4);
/** The longest one mode may take (A's backlog in place, then every B job started). */
const MODE_TIMEOUT_MS = param('timeout', 3_600) * 1_000;
const POLL_MS = 250;

const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const p50 = (values: number[]) => percentile(sorted(values), 0.5);
const max = (values: number[]) => Math.max(...values);
const min = (values: number[]) => Math.min(...values);

interface Api {
  baseUrl: string;
  tokenA: string;
  tokenB: string;
}

async function submit(api: Api, token: string): Promise<{ jobId: string; at: number }> {
  const at = Date.now();
  const response = await fetch(`${api.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: PROMPT }),
  });
  if (response.status !== 202) throw new Error(`POST /v1/chat: ${response.status} ${await response.text()}`);
  return { jobId: ((await response.json()) as { job_id: string }).job_id, at };
}

interface SlotRow {
  job_id: string;
  enqueued_at: Date;
  granted_at: Date | null;
  released_at: Date | null;
  first_level: Date | null;
}

async function slotRows(pool: Pool, jobIds: string[]): Promise<Map<string, SlotRow>> {
  const { rows } = await pool.query<SlotRow>(
    `SELECT s.job_id, s.enqueued_at, s.granted_at, s.released_at,
            (SELECT min(e.occurred_at) FROM job_events e WHERE e.job_id = s.job_id AND e.kind = 'level_started')
              AS first_level
       FROM job_slots s WHERE s.job_id = ANY($1)`,
    [jobIds],
  );
  return new Map(rows.map((row) => [row.job_id, row]));
}

async function until<T>(what: string, deadline: number, probe: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${MODE_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

interface ModeResult {
  fair: boolean;
  /** B's jobs: submit to first level_started (ms), in submit order. */
  bStartMs: number[];
  /** B's jobs: slot row enqueued to granted (ms). */
  bGrantMs: number[];
  /** A's first job: submit to first level_started (ms), a free slot. */
  jobStartMs: number;
  /** p50 of A's jobs' granted to released (ms), those released before B's last job started. */
  turnoverMs: number;
  aReleased: number;
  submitAMs: number;
}

async function runMode(
  fair: boolean,
  temporalAddress: string,
  dir: string,
  runId: string,
  teardown: Teardown,
): Promise<ModeResult> {
  const mode = fair ? 'fair' : 'fifo';
  const schema = `bench_fairness_${mode}_${runId}`;
  const pool = await throwawaySchema(teardown, POSTGRES_DSN, schema, 4);
  const instanceId = `bench-fairness-${mode}-${runId}`;
  const raw = new Redis(REDIS_URL, { lazyConnect: true });
  await raw.connect();
  teardown.push(`redis keys ${mode}`, () => deleteKeys(raw, queueKeyPrefix(instanceId)).finally(() => raw.quit()));
  const common = {
    POSTGRES_DSN,
    POSTGRES_SCHEMA: schema,
    REDIS_URL,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: 'default',
    KEEL_INSTANCE_ID: instanceId,
    JOB_QUEUE_KEY: instanceId,
    DATA_DIR: path.join(dir, mode, 'data'),
    WORKSPACE_DIR: path.join(dir, mode, 'workspaces'),
    LOG_LEVEL: 'fatal',
  };
  const apiPort = await freePort();
  const apiProcess = startKeelProcess('api-main', {
    ...common,
    API_PORT: String(apiPort),
    JOB_SCHEDULING: 'true',
    JOB_SLOTS_TOTAL: String(SLOTS),
    JOB_SCHEDULING_FAIR: String(fair),
    // A's backlog is submitted by one user at once.
    RATE_LIMIT_USER_PER_MINUTE: '1000000',
    RATE_LIMIT_ORG_PER_MINUTE: '1000000',
  });
  teardown.push(`api ${mode}`, () => apiProcess.stop());
  const workerPort = await freePort();
  const worker = startKeelProcess('worker-main', {
    ...common,
    WORKER_HTTP_PORT: String(workerPort),
    WORKER_SHUTDOWN_GRACE: '1 second',
    TEMPORAL_SDK_METRICS_PORT: 'off',
  });
  teardown.push(`worker ${mode}`, () => worker.stop());
  await waitHealthy(worker, `http://127.0.0.1:${workerPort}/healthz`);
  const baseUrl = `http://127.0.0.1:${apiPort}`;
  await waitHealthy(apiProcess, `${baseUrl}/healthz`);
  const tokenA = (await createToken(pool, { userId: 'bench-a', orgId: 'org-a', isAdmin: false })).token;
  const tokenB = (await createToken(pool, { userId: 'bench-b', orgId: 'org-b', isAdmin: false })).token;
  const api = { baseUrl, tokenA, tokenB };
  const deadline = Date.now() + MODE_TIMEOUT_MS;

  console.log(`[${mode}] org A submits ${A} jobs…`);
  const submittingA = Date.now();
  const aJobs: Array<{ jobId: string; at: number }> = [];
  for (let i = 0; i < A; i += 1) aJobs.push(await submit(api, tokenA));
  const submitAMs = Date.now() - submittingA;
  const aIds = aJobs.map((j) => j.jobId);
  await until(`[${mode}] A's ${A} slot rows`, deadline, async () =>
    (await slotRows(pool, aIds)).size === A ? true : undefined,
  );
  console.log(`[${mode}] A's backlog in place (submitted in ${(submitAMs / 1000).toFixed(1)} s); org B submits ${B}…`);
  const bJobs: Array<{ jobId: string; at: number }> = [];
  for (let i = 0; i < B; i += 1) bJobs.push(await submit(api, tokenB));
  const bIds = bJobs.map((j) => j.jobId);
  const bRows = await until(`[${mode}] every B job's first level_started`, deadline, async () => {
    const rows = await slotRows(pool, bIds);
    return rows.size === B && [...rows.values()].every((r) => r.first_level && r.granted_at) ? rows : undefined;
  });
  const aRows = await slotRows(pool, aIds);
  const first = aRows.get(aJobs[0]!.jobId);
  if (!first?.first_level) throw new Error(`[${mode}] A's first job has no level_started`);
  const released = [...aRows.values()].filter((r) => r.granted_at && r.released_at);
  const result: ModeResult = {
    fair,
    bStartMs: bJobs.map((j) => bRows.get(j.jobId)!.first_level!.getTime() - j.at),
    bGrantMs: bJobs.map((j) => {
      const row = bRows.get(j.jobId)!;
      return row.granted_at!.getTime() - row.enqueued_at.getTime();
    }),
    jobStartMs: first.first_level.getTime() - aJobs[0]!.at,
    turnoverMs: released.length
      ? p50(released.map((r) => r.released_at!.getTime() - r.granted_at!.getTime()))
      : Number.NaN,
    aReleased: released.length,
    submitAMs,
  };
  // This mode's processes stop now, so the next mode has the machine (its jobs left queued go with the server).
  await worker.stop();
  await apiProcess.stop();
  return result;
}

runBench(async () => {
  const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const loadBefore = loadAverage();
  console.log(
    `node ${process.version} | ${os.cpus().length} CPUs | load average (1/5/15 min) ${loadBefore} | ` +
      `A=${A} jobs, B=${B} jobs, JOB_SLOTS_TOTAL=${SLOTS}, no per-org limit`,
  );
  const teardown = new Teardown();
  try {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-bench-fairness-'));
    teardown.push('files', () => fs.rm(dir, { recursive: true, force: true }));
    const cliPath = findTemporalCli(process.env.TEMPORAL_CLI_PATH);
    if (!cliPath) throw new Error('no Temporal CLI (npm run setup installs it)');
    const temporal = await startDevServer({
      cliPath,
      dataDir: path.join(dir, 'temporal'),
      port: await freePort(),
      uiPort: await freePort(),
      namespace: 'default',
    });
    teardown.push('temporal', () => temporal.stop());

    const results: ModeResult[] = [];
    for (const fair of [false, true]) results.push(await runMode(fair, temporal.address, dir, runId, teardown));
    const loadAfter = loadAverage();

    const s = (ms: number) => (ms / 1000).toFixed(1);
    console.log(
      `\nmode (JOB_SCHEDULING_FAIR) | B p50 wait s | B max wait s | B min wait s (B's first to start) | ` +
        `B p50 / max grant s | one job's start s | slot turnover p50 s | goal start + turnover s: B min, B max`,
    );
    for (const r of results) {
      const goal = r.jobStartMs + r.turnoverMs;
      console.log(
        `${r.fair ? 'fair (true)' : 'FIFO (false)'} | ${s(p50(r.bStartMs))} | ${s(max(r.bStartMs))} | ` +
          `${s(min(r.bStartMs))} | ${s(p50(r.bGrantMs))} / ${s(max(r.bGrantMs))} | ${s(r.jobStartMs)} | ` +
          `${s(r.turnoverMs)} (${r.aReleased} A jobs) | ${s(goal)}: ` +
          `${min(r.bStartMs) <= goal ? 'met' : 'not met'}, ${max(r.bStartMs) <= goal ? 'met' : 'not met'}`,
      );
    }
    console.log(
      `wait: the bench's POST /v1/chat to the job's first level_started event; grant: its slot row's enqueued_at ` +
        `to granted_at`,
    );
    console.log(`load average (1/5/15 min) before ${loadBefore}, after ${loadAfter}`);
    printJson('fairness', {
      a: A,
      b: B,
      slots: SLOTS,
      load_before: loadBefore,
      load_after: loadAfter,
      modes: results.map((r) => ({
        fair: r.fair,
        b_wait_ms_p50: p50(r.bStartMs),
        b_wait_ms_max: max(r.bStartMs),
        b_wait_ms_min: min(r.bStartMs),
        b_grant_ms_p50: p50(r.bGrantMs),
        b_grant_ms_max: max(r.bGrantMs),
        b_wait_ms: r.bStartMs,
        job_start_ms: r.jobStartMs,
        slot_turnover_ms_p50: r.turnoverMs,
        a_released: r.aReleased,
      })),
    });
  } finally {
    await teardown.run();
  }
});
