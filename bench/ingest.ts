// Prints how fast Keel ingests jobs next to baselines measured in the same run against the same Temporal dev server:
//   1. bare start     client.workflow.start('runJob') with only the job's args, on a task queue no worker polls;
//   2. start as Keel  the same call with the memo and search attributes POST /v1/chat adds (isolates their cost);
//   3. Keel           POST /v1/chat over loopback HTTP: token lookup, rate limits (Redis), redaction, id sequences,
//                     the rows' transaction and the workflow start. No worker runs, so jobs just queue.
// Each phase runs N operations with C in flight, in R interleaved rounds, after a warm-up that is not counted.
// Each phase also prints the CPU time it cost per operation, from /proc: this process (the API and the clients), the
// Temporal dev server it spawned and this run's PostgreSQL backends. On a machine whose cores are all busy, the rate is
// bounded by CPU per operation, so bare's CPU per op over Keel's is the rate ratio Keel can reach there.
// Numbers are printed, never asserted.
// Needs PostgreSQL (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end) and Redis (BENCH_REDIS_URL).
// Run: npm run build && node dist/bench/ingest.js [--n=300] [--c=8] [--warmup=30] [--rounds=3] [--json]  (or BENCH_N, ...)
import crypto from 'node:crypto';
import os from 'node:os';
import type { WorkflowStartOptions } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { createToken } from '../db/tokens';
import { createQueueStore } from '../queue/create-queue-store';
import { findTemporalCli } from '../temporal/cli-path';
import { KEEL_CREATED_BY, KEEL_SEARCH_ATTRIBUTES, KEEL_STATUS, KEEL_WORKFLOW_ID } from '../pure/search-attributes';
import type { runJob } from '../workflows/job';
import { startBenchApi } from './api';
import { param, percentile, printJson } from './measure';
import { childPids, ownCpuMs, processCpuMs } from './process-cpu';
import { runBench, Teardown } from './run-bench';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const OP_TIMEOUT_MS = 30_000;
const PROMPT = 'Write hello.md that greets the reader by name, then mail the summary to ops@example.com.';

/** One measured operation; its samples and busy seconds accumulate over the rounds. */
interface Phase {
  name: string;
  op: (i: number) => Promise<void>;
  samples: number[];
  seconds: number;
  /** CPU milliseconds spent while the phase ran, by process group (see cpuNow). */
  cpuMs: Cpu;
}

/** CPU time (ms) of: this process (the API and the bench's clients), the Temporal dev server, this run's PostgreSQL backends. */
interface Cpu {
  bench: number;
  temporal: number;
  postgres: number;
}

let cpuSources: { temporal: number[]; postgres: number[] } = { temporal: [], postgres: [] };

function cpuNow(): Cpu {
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + processCpuMs(pid), 0);
  return {
    bench: ownCpuMs(),
    temporal: sum(cpuSources.temporal),
    postgres: sum(cpuSources.postgres),
  };
}

let interrupted = false;

/**
 * Runs `op(from..from+count-1)` with `concurrency` in flight and adds the latencies (ms) and the wall time to the
 * phase (unless it is a warm-up). The first failure stops the run; every lane first finishes its operation in flight,
 * so teardown never races a request.
 */
async function runBatch(phase: Phase, from: number, count: number, concurrency: number, record: boolean) {
  const samples: number[] = [];
  let next = from;
  let failure: Error | undefined;
  const started = process.hrtime.bigint();
  const cpuBefore = cpuNow();
  const lane = async () => {
    while (next < from + count && !failure && !interrupted) {
      const i = next++;
      const t0 = process.hrtime.bigint();
      try {
        await phase.op(i);
      } catch (err) {
        failure ??= new Error(`${phase.name}: operation ${i} failed: ${(err as Error).message}`, { cause: err });
        return;
      }
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  if (failure) throw failure;
  if (interrupted) throw new Error(`${phase.name}: interrupted`);
  if (!record) return;
  phase.samples.push(...samples);
  phase.seconds += Number(process.hrtime.bigint() - started) / 1e9;
  const cpuAfter = cpuNow();
  for (const key of ['bench', 'temporal', 'postgres'] as const) phase.cpuMs[key] += cpuAfter[key] - cpuBefore[key];
}

type Summary = ReturnType<typeof summary>;

function summary(phase: Phase) {
  const sorted = [...phase.samples].sort((a, b) => a - b);
  return {
    name: phase.name,
    count: sorted.length,
    seconds: phase.seconds,
    perSecond: sorted.length / phase.seconds,
    cpuPerOp: {
      bench: phase.cpuMs.bench / sorted.length,
      temporal: phase.cpuMs.temporal / sorted.length,
      postgres: phase.cpuMs.postgres / sorted.length,
    },
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1]!,
  };
}

async function main(): Promise<void> {
  const n = param('n', 300);
  const c = param('c', 8);
  const warmup = param('warmup', 30, 0);
  const rounds = Math.min(param('rounds', 3), n);
  const poolMax = param('pool', 10); // POSTGRES_POOL_MAX's default
  const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const cli = findTemporalCli(process.env.TEMPORAL_CLI_PATH);
  console.log(
    `node ${process.version} | ${os.platform()} ${os.arch()} | ${os.cpus().length} CPUs (${os.cpus()[0]?.model})`,
  );
  console.log(
    `N=${n} C=${c} warm-up=${warmup} per phase, in ${rounds} rounds | pg pool max=${poolMax} | temporal CLI ${cli ?? 'SDK download'}`,
  );

  // Torn down in reverse order, whatever happens after each step succeeded.
  const teardown = new Teardown();
  process.once('SIGINT', () => (interrupted = true));
  try {
    const temporal = await TestWorkflowEnvironment.createLocal({
      server: {
        ...(cli ? { executable: { type: 'existing-path', path: cli } } : {}),
        searchAttributes: KEEL_SEARCH_ATTRIBUTES,
        extraArgs: ['--log-level', 'error'],
      },
    });
    teardown.push('temporal', () => temporal.teardown());

    const schema = `bench_${runId}`;
    const pool = await throwawaySchema(teardown, POSTGRES_DSN, schema, poolMax);
    // The backends named below are this run's PostgreSQL CPU: the pool must keep them, not close one idle for 10 s
    // (pg-pool's default) and open another the bench does not watch, which undercounted (even negative) phases.
    pool.options.idleTimeoutMillis = 0;

    const queue = await createQueueStore({ redisUrl: REDIS_URL, instanceId: `bench-${runId}` });
    teardown.push('redis', () => queue.close());

    const taskQueue = `bench-keel-${runId}`;
    const { app, baseUrl } = await startBenchApi({ pool, queue, temporal: temporal.client, taskQueue: taskQueue });
    teardown.push('api', () => app.close());
    const { token } = await createToken(pool, { userId: 'bench', orgId: 'org-bench', isAdmin: false });
    // Every connection of the pool, held at once, names its backend: their CPU is this run's database work.
    const held = await Promise.all(Array.from({ length: poolMax }, () => pool.connect()));
    const backends = await Promise.all(
      held.map(async (conn) => (await conn.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid),
    );
    for (const conn of held) conn.release();
    cpuSources = { temporal: childPids(), postgres: backends };

    const client = temporal.client;
    const bareQueue = `bench-bare-${runId}`;
    const startArgs = (jobId: string): WorkflowStartOptions<typeof runJob> => ({
      workflowId: jobId,
      taskQueue: bareQueue,
      args: [{ ids: { job_id: jobId, workflow_id: 'wf-0', prompt_id: 'pt-0' }, prompt: PROMPT, createdBy: 'bench' }],
    });
    const bareStart = async (jobId: string) => {
      await client.withDeadline(Date.now() + OP_TIMEOUT_MS, () => client.workflow.start('runJob', startArgs(jobId)));
    };
    const keelLikeStart = async (jobId: string) => {
      const options: WorkflowStartOptions<typeof runJob> = {
        ...startArgs(jobId),
        memo: { prompt_preview: PROMPT.slice(0, 200) },
        typedSearchAttributes: [
          { key: KEEL_WORKFLOW_ID, value: 'wf-0' },
          { key: KEEL_CREATED_BY, value: 'bench' },
          { key: KEEL_STATUS, value: 'queued' },
        ],
      };
      await client.withDeadline(Date.now() + OP_TIMEOUT_MS, () => client.workflow.start('runJob', options));
    };
    const postChat = async () => {
      const res = await fetch(`${baseUrl}/v1/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: PROMPT }),
        signal: AbortSignal.timeout(OP_TIMEOUT_MS),
      });
      const body = await res.text();
      if (res.status !== 202) throw new Error(`HTTP ${res.status}: ${body.slice(0, 300)}`);
    };

    const phases: Phase[] = [
      {
        name: 'bare start',
        op: (i) => bareStart(`bench-bare-${runId}-${i}`),
        samples: [],
        seconds: 0,
        cpuMs: { bench: 0, temporal: 0, postgres: 0 },
      },
      {
        name: 'start as Keel',
        op: (i) => keelLikeStart(`bench-sa-${runId}-${i}`),
        samples: [],
        seconds: 0,
        cpuMs: { bench: 0, temporal: 0, postgres: 0 },
      },
      {
        name: 'Keel POST /v1/chat',
        op: () => postChat(),
        samples: [],
        seconds: 0,
        cpuMs: { bench: 0, temporal: 0, postgres: 0 },
      },
    ];
    console.log('warming up…');
    for (const phase of phases) await runBatch(phase, 0, warmup, c, false);
    // The phases take turns in rounds, so drift (a busy neighbour, a growing Temporal store) spreads over all three.
    for (let round = 0, done = 0; round < rounds; round += 1) {
      const count = Math.floor((n * (round + 1)) / rounds) - done;
      for (const phase of phases) await runBatch(phase, warmup + done, count, c, true);
      done += count;
    }

    const { rows } = await pool.query<{ count: string }>('SELECT count(*) AS count FROM job_runs');
    console.log(`job_runs rows written: ${rows[0]?.count} (expected ${warmup + n})\n`);
    const results = phases.map(summary);
    const line = (name: string, cells: string[]) =>
      console.log(`${name.padEnd(18)} | ${cells.map((x) => x.padStart(7)).join(' | ')}`);
    line('phase', ['ops', 'seconds', 'ops/s', 'p50 ms', 'p99 ms', 'max ms']);
    for (const r of results) {
      line(r.name, [
        String(r.count),
        r.seconds.toFixed(2),
        ...[r.perSecond, r.p50, r.p99, r.max].map((x) => x.toFixed(1)),
      ]);
    }
    const [bare, keelLike, keel] = results as [Summary, Summary, Summary];
    const ratios = (base: Summary) =>
      `rate ${(keel.perSecond / base.perSecond).toFixed(2)}x, p50 ${(keel.p50 / base.p50).toFixed(2)}x, ` +
      `p99 ${(keel.p99 / base.p99).toFixed(2)}x`;
    console.log(
      `\nCPU ms per operation (${os.cpus().length} cores shared by all; the bench process holds the API and the clients):`,
    );
    line('phase', ['bench', 'temporal', 'pg', 'total']);
    for (const r of results) {
      const { bench, temporal: server, postgres } = r.cpuPerOp;
      line(
        r.name,
        [bench, server, postgres, bench + server + postgres].map((x) => x.toFixed(2)),
      );
    }
    const cpuTotal = (r: Summary) => r.cpuPerOp.bench + r.cpuPerOp.temporal + r.cpuPerOp.postgres;
    console.log(
      `CPU-bound rate ceiling, Keel / bare start = bare CPU per op / Keel CPU per op: ` +
        `${(cpuTotal(bare) / cpuTotal(keel)).toFixed(2)}x (sources: ${cpuSources.temporal.length} Temporal process, ` +
        `${cpuSources.postgres.length} PostgreSQL backends)`,
    );
    console.log(`\nKeel / bare start:    ${ratios(bare)}`);
    console.log(`Keel / start as Keel: ${ratios(keelLike)}`);
    printJson('ingest', {
      n,
      c,
      phases: results.map((r) => ({
        name: r.name,
        ops_per_s: r.perSecond,
        p50_ms: r.p50,
        p99_ms: r.p99,
        cpu_ms_per_op: r.cpuPerOp,
      })),
      rate_ratio_vs_bare: keel.perSecond / bare.perSecond,
      p50_ratio_vs_bare: keel.p50 / bare.p50,
      p99_ratio_vs_bare: keel.p99 / bare.p99,
      rate_ratio_vs_start_as_keel: keel.perSecond / keelLike.perSecond,
      p50_ratio_vs_start_as_keel: keel.p50 / keelLike.p50,
    });
  } finally {
    await teardown.run();
  }
}

runBench(main);
