// Prints how long the default demo job takes under `npm start` on its embedded defaults next to the same code on
// PostgreSQL and Redis, measured from outside in one run (nothing is asserted; issue #37's goal is embedded ≤ 1.2×):
//   embedded    `node dist/stack/main.js` (what `npm start` execs) on a throwaway DATA_DIR: PGlite, the in-process
//               queue store, its own Temporal dev server, the offline demo model;
//   production  the same command with POSTGRES_DSN on a throwaway database of BENCH_POSTGRES_DSN's server (dropped at
//               the end) and REDIS_URL on BENCH_REDIS_URL (its own KEEL_INSTANCE_ID, its keys deleted at the end).
// Both stacks run side by side for the whole run and take turns, one job at a time, after a warm-up. A job is timed
// from a plain POST /v1/chat to `final` on GET /v1/jobs/:id/stream, with the dev token the stack wrote to DATA_DIR.
// Both get the same DEMO_MODEL_CHUNK_MS (--chunk-ms; default: unset, `npm start`'s 30 ms pacing of the demo answer).
// Run: npm run build && npm run bench:embedded [-- --n=5 --warmup=1 --chunk-ms=30 --json]
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { Redis } from 'ioredis';
import { Client as PgClient } from 'pg';
import { streamJobEvents } from '../cli/event-stream';
import { queueKeyPrefix } from '../queue/create-queue-store';
import { devTokenPath, stackStatePath, type StackState } from '../stack/state-file';
import { cpuMs, freePort, startKeelProcess, type KeelProcess } from './keel-processes';
import { param, percentile, printJson } from './measure';
import { deleteKeys } from './redis-keys';
import { runBench, Teardown } from './run-bench';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The job `npm start` suggests trying first. */
const PROMPT = 'Write hello.md that greets the reader';
const JOB_TIMEOUT_MS = 120_000;
const START_TIMEOUT_MS = 180_000;

const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

interface Shape {
  name: 'embedded' | 'production';
  process: KeelProcess;
  apiUrl: string;
  token: string;
  temporal: Client;
  ms: number[];
  events: number[];
}

/** Starts `npm start`'s entry on `env` and waits for "Keel is running."; registers its stop on `teardown`. */
async function startShape(name: Shape['name'], env: Record<string, string>, teardown: Teardown): Promise<Shape> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `keel-bench-${name}-`));
  teardown.push(`${name} data dir`, () => fs.rm(dataDir, { recursive: true, force: true }));
  const ports: Record<string, string> = {};
  for (const port of ['API_PORT', 'AUTH_PORT', 'CONSOLE_PORT', 'TEMPORAL_DEV_PORT', 'TEMPORAL_UI_PORT']) {
    ports[port] = String(await freePort());
  }
  const started = Date.now();
  const keel = startKeelProcess('main', { DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...ports, ...env });
  teardown.push(name, () => keel.stop());
  while (!keel.output().includes('Keel is running.')) {
    if (!keel.alive()) throw new Error(`${name}: npm start exited:\n${keel.output()}`);
    if (Date.now() - started > START_TIMEOUT_MS) throw new Error(`${name}: not running in time:\n${keel.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  console.log(`${name}: running in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${keel.pid})`);
  const state = JSON.parse(await fs.readFile(stackStatePath(dataDir), 'utf8')) as StackState;
  const token = (await fs.readFile(devTokenPath(dataDir), 'utf8')).trim();
  const connection = await Connection.connect({ address: state.temporal_address });
  teardown.push(`${name} Temporal client`, () => connection.close());
  const temporal = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE ?? 'default' });
  return { name, process: keel, apiUrl: state.api_url, token, temporal, ms: [], events: [] };
}

/** One job from outside: submit, then read its stream to `final`; returns its id and the milliseconds it took. */
async function runJob(shape: Shape): Promise<{ jobId: string; ms: number }> {
  const signal = AbortSignal.timeout(JOB_TIMEOUT_MS);
  const started = performance.now();
  const res = await fetch(`${shape.apiUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${shape.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: PROMPT }),
    signal,
  });
  const body = await res.text();
  if (res.status !== 202) throw new Error(`${shape.name}: POST /v1/chat: HTTP ${res.status}: ${body.slice(0, 300)}`);
  const jobId = (JSON.parse(body) as { job_id: string }).job_id;
  for await (const event of streamJobEvents({ baseUrl: shape.apiUrl, token: shape.token, jobId, signal })) {
    if (event.kind === 'final') return { jobId, ms: performance.now() - started };
    if (event.kind === 'error') throw new Error(`${shape.name}: job ${jobId} failed: ${JSON.stringify(event.payload)}`);
  }
  throw new Error(`${shape.name}: job ${jobId}: the stream ended without a final event`);
}

/** Events in the job workflow's history, once it has completed (`final` is streamed a moment before). */
async function historyEvents(shape: Shape, jobId: string): Promise<number> {
  const handle = shape.temporal.workflow.getHandle(jobId);
  await shape.temporal.withDeadline(Date.now() + JOB_TIMEOUT_MS, () => handle.result());
  return (await handle.fetchHistory()).events?.length ?? 0;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), min: sorted[0]!, max: sorted.at(-1)! };
}

async function main(): Promise<void> {
  const n = param('n', 5);
  const warmup = param('warmup', 1, 0);
  const chunkFlag = process.argv.find((arg) => arg.startsWith('--chunk-ms='))?.slice('--chunk-ms='.length);
  const chunkMs = chunkFlag ?? process.env.DEMO_MODEL_CHUNK_MS;
  const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const loadBefore = loadAverage();
  console.log(`${os.cpus().length} CPUs | load average (1/5/15 min) ${loadBefore}`);
  console.log(
    `N=${n} jobs per shape, taking turns, warm-up=${warmup} | DEMO_MODEL_CHUNK_MS ${chunkMs ?? "unset (npm start's 30)"}`,
  );
  const common: Record<string, string> = {
    ...(process.env.TEMPORAL_CLI_PATH ? { TEMPORAL_CLI_PATH: process.env.TEMPORAL_CLI_PATH } : {}),
    ...(chunkMs !== undefined ? { DEMO_MODEL_CHUNK_MS: chunkMs } : {}),
  };

  const teardown = new Teardown();
  try {
    // The production shape's database: a throwaway of its own on the server, so every schema the stack creates
    // (ingest, identity, knowledge hub) goes with it.
    const database = `bench_embedded_${runId}`;
    const admin = new PgClient({ connectionString: POSTGRES_DSN });
    await admin.connect();
    teardown.push('admin connection', () => admin.end());
    await admin.query(`CREATE DATABASE "${database}"`);
    teardown.push('database', () => admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    const dsn = new URL(POSTGRES_DSN);
    dsn.pathname = `/${database}`;
    const instanceId = `bench-embedded-${runId}`;
    const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 5_000 });
    await redis.connect();
    teardown.push('redis keys', () => deleteKeys(redis, queueKeyPrefix(instanceId)).finally(() => redis.quit()));

    const shapes = [
      await startShape('embedded', common, teardown),
      await startShape(
        'production',
        { ...common, POSTGRES_DSN: dsn.toString(), REDIS_URL, KEEL_INSTANCE_ID: instanceId },
        teardown,
      ),
    ];
    const cpuBefore = await Promise.all(shapes.map((shape) => cpuMs(shape.process.pid)));
    for (let i = 0; i < warmup + n; i += 1) {
      // Taking turns at going first, so neither shape always runs right after the other's tail work.
      for (const shape of i % 2 === 0 ? shapes : [...shapes].reverse()) {
        const { jobId, ms } = await runJob(shape);
        const events = await historyEvents(shape, jobId);
        console.log(
          `  ${i < warmup ? 'warm-up' : `job ${i - warmup + 1}`} ${shape.name}: ${ms.toFixed(0)} ms, ${events} events`,
        );
        if (i < warmup) continue;
        shape.ms.push(ms);
        shape.events.push(events);
      }
    }
    const cpuAfter = await Promise.all(shapes.map((shape) => cpuMs(shape.process.pid)));
    const [embedded, production] = shapes.map((shape, i) => ({
      ...summary(shape.ms),
      events: summary(shape.events).p50,
      // The whole runs' CPU of the stack process (not the dev server), over the warm-up and measured jobs.
      cpu_ms_per_job: (cpuAfter[i]! - cpuBefore[i]!) / (warmup + n),
    }));
    console.log('\nshape      |   p50 ms |   p90 ms |   min ms |   max ms | history events (p50) | stack CPU ms/job');
    for (const [name, s] of [
      ['embedded', embedded!],
      ['production', production!],
    ] as const) {
      const cells = [s.p50, s.p90, s.min, s.max].map((x) => x.toFixed(0).padStart(8));
      console.log(
        `${name.padEnd(10)} | ${cells.join(' | ')} | ${String(s.events).padStart(20)} | ${s.cpu_ms_per_job.toFixed(0)}`,
      );
    }
    const ratio = { p50: embedded!.p50 / production!.p50, p90: embedded!.p90 / production!.p90 };
    console.log(`\nembedded / production: p50 ${ratio.p50.toFixed(2)}x, p90 ${ratio.p90.toFixed(2)}x (goal ≤ 1.2x)`);
    const loadAfter = loadAverage();
    console.log(`load average (1/5/15 min): before ${loadBefore}, after ${loadAfter}`);
    printJson('embedded', {
      embedded,
      production,
      p50_ratio: ratio.p50,
      p90_ratio: ratio.p90,
      chunk_ms: chunkMs ?? 'default',
      load_before: loadBefore,
      load_after: loadAfter,
    });
  } finally {
    await teardown.run();
  }
}

runBench(main);
