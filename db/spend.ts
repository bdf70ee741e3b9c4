/**
 * One person's spend since a moment, from stored job runs: by day (UTC) and by job. The same rows and the same sum as
 * the budget check (jobs/ledger.ts `readSpend`: `job_runs.cost_usd` of the jobs they created since the period start),
 * so the days add up to the "spent this month" of their budget.
 */
import type { Pool } from 'pg';

export interface SpendDay {
  day: string;
  jobs: number;
  cost_usd: number;
}

export interface SpendJob {
  job_id: string;
  workflow_id: string;
  status: string;
  /** The first line of the job's prompt. */
  title: string;
  created_at: string;
  cost_usd: number;
}

/** The most expensive jobs listed by job; the days still count every job. */
export const SPEND_JOBS_LIMIT = 100;

export async function readUserSpend(
  pool: Pool,
  userId: string,
  since: Date,
): Promise<{ days: SpendDay[]; jobs: SpendJob[]; totalJobs: number }> {
  const [days, jobs] = await Promise.all([
    pool.query<{ day: string; jobs: number; cost_usd: string }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS jobs,
              SUM(cost_usd)::text AS cost_usd
         FROM job_runs WHERE created_by = $1 AND created_at >= $2
        GROUP BY 1 ORDER BY 1`,
      [userId, since],
    ),
    pool.query<{
      job_id: string;
      workflow_id: string;
      status: string;
      prompt: string | null;
      created_at: Date;
      cost_usd: string;
    }>(
      `SELECT j.job_id, j.workflow_id, j.status, p.prompt, j.created_at, j.cost_usd::text AS cost_usd
         FROM job_runs j LEFT JOIN prompt_threads p ON p.prompt_id = j.prompt_id
        WHERE j.created_by = $1 AND j.created_at >= $2
        ORDER BY j.cost_usd DESC, j.created_at DESC LIMIT $3`,
      [userId, since, SPEND_JOBS_LIMIT],
    ),
  ]);
  return {
    days: days.rows.map((r) => ({ day: r.day, jobs: r.jobs, cost_usd: Number(r.cost_usd) })),
    jobs: jobs.rows.map((r) => ({
      job_id: r.job_id,
      workflow_id: r.workflow_id,
      status: r.status,
      title: (r.prompt ?? '').split('\n', 1)[0]!.slice(0, 200),
      created_at: r.created_at.toISOString(),
      cost_usd: Number(r.cost_usd),
    })),
    totalJobs: days.rows.reduce((sum, r) => sum + r.jobs, 0),
  };
}
