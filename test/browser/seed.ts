import type { Pool } from 'pg';
import { uniqueSuffix } from '../integration/env';
import { CONSOLE_ORG } from './stack';

let counter = 0;

/**
 * A workflow with one job of `status`, written straight into the ingest schema (no job runs): for list pages and
 * ownership checks that need many workflows or a job of someone else, without waiting for real jobs.
 */
export async function seedWorkflow(
  pool: Pool,
  input: { createdBy: string; status: string; updatedAt: Date; costUsd?: number; project?: string },
): Promise<{ workflowId: string; jobId: string }> {
  counter += 1;
  const suffix = `${uniqueSuffix()}${counter}`;
  const workflowId = `wf-${900000 + counter}`;
  const promptId = `pt-${900000 + counter}`;
  const jobId = `job-seed-${suffix}`;
  await pool.query(
    `INSERT INTO workflows (workflow_id, project_slug, created_by, org_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5)`,
    [workflowId, input.project ?? null, input.createdBy, CONSOLE_ORG, input.updatedAt],
  );
  await pool.query(`INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ($1, $2, $3, $4)`, [
    promptId,
    workflowId,
    'Write seed.md',
    input.createdBy,
  ]);
  await pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue, cost_usd, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'seeded', $7, $8)`,
    [jobId, workflowId, promptId, input.status, input.createdBy, CONSOLE_ORG, input.costUsd ?? 0, input.updatedAt],
  );
  return { workflowId, jobId };
}

/** Moves a seeded workflow's job to `status`, touching the workflow as a real status change does. */
export async function setSeededStatus(pool: Pool, seeded: { workflowId: string; jobId: string }, status: string) {
  await pool.query(`UPDATE job_runs SET status = $2, updated_at = now() WHERE job_id = $1`, [seeded.jobId, status]);
  await pool.query(`UPDATE workflows SET updated_at = now() WHERE workflow_id = $1`, [seeded.workflowId]);
}
