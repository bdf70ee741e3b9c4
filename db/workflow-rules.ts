import type { Pool } from 'pg';

/**
 * The jobs of a workflow that kept a `rules.md` (the team lead writes one per `rule:` prompt), oldest first. The
 * files themselves live in each job's workspace.
 */
export async function jobsWithRules(pool: Pool, workflowId: string): Promise<string[]> {
  const { rows } = await pool.query<{ job_id: string }>(
    `SELECT f.job_id FROM job_files f JOIN job_runs j USING (job_id)
      WHERE j.workflow_id = $1 AND f.path = 'rules.md'
      ORDER BY f.updated_at, f.job_id`,
    [workflowId],
  );
  return rows.map((r) => r.job_id);
}
