// Prints what a budget reservation adds to each model call (issue 36, "reservation overhead per model call"), next to
// a baseline in the same run (nothing is asserted):
//   - keel: `reserveSpend` before the call and `settleSpend` after it (db/budget-reservations.ts, the exact functions
//     the reserveBudget / settleBudget activities run), with every budget binding: the job's ceiling, the user's own
//     monthly budget, the org's and the project's (so every check runs its query);
//   - bare: the one statement a call's cost needs without reservations, `UPDATE job_runs SET cost_usd = cost_usd + $2`.
// At concurrency 1 (one level's calls one after another) and at --concurrency (levels of several jobs of one org at
// once: they take the org's advisory lock in turn, which is what makes two calls racing for the last dollars safe).
// Needs PostgreSQL only (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end). The activity's own cost (a
// Temporal task each way) is not in these figures: docs/job-history.md counts those.
// Run: npm run build && npm run bench:reservations -- [--calls=400] [--concurrency=8] [--warmup=40] [--json]
import os from 'node:os';
import type { Pool } from 'pg';
import { reserveSpend, settleSpend } from '../db/budget-reservations';
import { param, percentile, printJson } from './measure';
import { runBench, Teardown } from './run-bench';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const ORG = 'org-bench';
const USER = 'user-bench';

/** One org with a project, `jobs` running jobs in it, and a budget on the org, the project and the user. */
async function seed(pool: Pool, jobs: number): Promise<void> {
  await pool.query(`INSERT INTO projects (slug, name, org_id) VALUES ('site', 'Site', $1)`, [ORG]);
  await pool.query(
    `INSERT INTO workflows (workflow_id, project_slug, org_id) SELECT 'wf-' || g, 'site', $2 FROM generate_series(1, $1::int) g`,
    [jobs, ORG],
  );
  await pool.query(
    `INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by)
     SELECT 'pt-' || g, 'wf-' || g, 'Write hello.md', $2 FROM generate_series(1, $1::int) g`,
    [jobs, USER],
  );
  await pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, model_tier, created_by, org_id, task_queue)
     SELECT 'job-' || g, 'wf-' || g, 'pt-' || g, 'running', 'cheap', $2, $3, 'q' FROM generate_series(1, $1::int) g`,
    [jobs, USER, ORG],
  );
  // Budgets far above what the run spends: every check runs and passes.
  await pool.query(
    `INSERT INTO tenant_budgets (org_id, project_slug, budget_cents, updated_by) VALUES ($1, NULL, 10000000, 'bench'), ($1, 'site', 10000000, 'bench')`,
    [ORG],
  );
  await pool.query(`INSERT INTO user_budget_standings (user_id, budget_cents) VALUES ($1, 10000000)`, [USER]);
  await pool.query('VACUUM (ANALYZE)');
}

type Call = (job: string, call: number) => Promise<unknown>;

/** `calls` calls, `concurrency` at a time, each on its own job (`job-1`..`job-<concurrency>`); ms per call, sorted. */
async function timeCalls(call: Call, calls: number, concurrency: number, offset: number): Promise<number[]> {
  const samples: number[] = [];
  let next = 0;
  const runLane = async (lane: number) => {
    while (next < calls) {
      const i = offset + next;
      next += 1;
      const started = process.hrtime.bigint();
      await call(`job-${lane + 1}`, i);
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, lane) => runLane(lane)));
  return samples.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const calls = param('calls', 400);
  const concurrency = param('concurrency', 8);
  const warmup = param('warmup', 40, 0);
  const teardown = new Teardown();
  try {
    const pool = await throwawaySchema(teardown, POSTGRES_DSN, `bench_reservations_${process.pid}`, concurrency + 2);
    await seed(pool, concurrency);
    const load = { before: os.loadavg().map((n) => Number(n.toFixed(2))) };

    const keel: Call = async (jobId, i) => {
      const reservationId = `${jobId}/L4.executor/1#${i}.0`;
      await reserveSpend(
        pool,
        {
          reservationId,
          jobId,
          levelId: `${jobId}/L4.executor/1`,
          provider: 'demo',
          model: 'keel-demo',
          ceilingUsd: 1_000_000,
          nowMs: Date.now(),
        },
        () => 0.001,
      );
      await settleSpend(pool, { reservationId, jobId, costUsd: 0.0009 });
    };
    const bare: Call = (jobId) =>
      pool.query('UPDATE job_runs SET cost_usd = cost_usd + $2 WHERE job_id = $1', [jobId, 0.0009]);

    const rows: Array<{ concurrency: number; mode: string; p50: number; p99: number; per_s: number }> = [];
    let offset = 0;
    for (const lanes of [1, concurrency]) {
      // Interleaved turns, so drift in the machine's load lands on both alike.
      const results: Record<string, number[]> = { keel: [], bare: [] };
      const seconds: Record<string, number> = { keel: 0, bare: 0 };
      for (const call of [keel, bare]) {
        await timeCalls(call, warmup, lanes, offset);
        offset += warmup;
      }
      for (let turn = 0; turn < 4; turn += 1) {
        for (const [mode, call] of [
          ['keel', keel],
          ['bare', bare],
        ] as const) {
          const started = process.hrtime.bigint();
          results[mode]!.push(...(await timeCalls(call, calls / 4, lanes, offset)));
          seconds[mode]! += Number(process.hrtime.bigint() - started) / 1e9;
          offset += calls;
        }
      }
      for (const mode of ['keel', 'bare']) {
        const sorted = results[mode]!.sort((a, b) => a - b);
        rows.push({
          concurrency: lanes,
          mode,
          p50: Number(percentile(sorted, 0.5).toFixed(2)),
          p99: Number(percentile(sorted, 0.99).toFixed(2)),
          per_s: Math.round(sorted.length / seconds[mode]!),
        });
      }
    }
    const after = os.loadavg().map((n) => Number(n.toFixed(2)));
    console.log(`reservation + settlement per model call vs the bare cost update (${calls} calls per row)`);
    console.log('concurrency  mode  p50 ms  p99 ms  calls/s');
    for (const r of rows) {
      console.log(
        `${String(r.concurrency).padStart(11)}  ${r.mode.padEnd(4)}  ${String(r.p50).padStart(6)}  ${String(r.p99).padStart(6)}  ${String(r.per_s).padStart(7)}`,
      );
    }
    for (const lanes of [1, concurrency]) {
      const k = rows.find((r) => r.concurrency === lanes && r.mode === 'keel')!;
      const b = rows.find((r) => r.concurrency === lanes && r.mode === 'bare')!;
      console.log(`concurrency ${lanes}: a reservation adds ${(k.p50 - b.p50).toFixed(2)} ms per call at p50`);
    }
    console.log(`load average before ${load.before.join(' / ')}, after ${after.join(' / ')}`);
    printJson('reservations', { calls, concurrency, rows, load_before: load.before, load_after: after });
  } finally {
    await teardown.run();
  }
}

runBench(main);
