import type { Pool, PoolClient } from 'pg';

type Queryable = Pick<Pool | PoolClient, 'query'>;

/** A fork as recorded (docs/fork-and-compare.md): which job it was forked from, and where. */
export interface JobForkRow {
  job_id: string;
  source_job_id: string;
  from_level_run_id: string | null;
  from_sequence: number | null;
  carried_level_ids: string[];
  prompt_patched: boolean;
  model_tier: string | null;
  created_at: Date;
}

export async function insertJobFork(db: Queryable, fork: Omit<JobForkRow, 'created_at'>): Promise<void> {
  await db.query(
    `INSERT INTO job_forks (job_id, source_job_id, from_level_run_id, from_sequence, carried_level_ids, prompt_patched,
                            model_tier)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      fork.job_id,
      fork.source_job_id,
      fork.from_level_run_id,
      fork.from_sequence,
      fork.carried_level_ids,
      fork.prompt_patched,
      fork.model_tier,
    ],
  );
}

/** The fork record of `jobId`, when it is a fork. */
export async function findJobFork(db: Queryable, jobId: string): Promise<JobForkRow | undefined> {
  const { rows } = await db.query<JobForkRow>(`SELECT * FROM job_forks WHERE job_id = $1`, [jobId]);
  return rows[0];
}

/** The forks of `sourceJobId`, oldest first. */
export async function listJobForks(db: Queryable, sourceJobId: string): Promise<JobForkRow[]> {
  const { rows } = await db.query<JobForkRow>(
    `SELECT * FROM job_forks WHERE source_job_id = $1 ORDER BY created_at, job_id`,
    [sourceJobId],
  );
  return rows;
}
