import type { Pool } from 'pg';
import { buildRunGraph, type RunGraph } from './run-graph';
import type { JobStatus } from '../db/jobs';
import { listEventsAfter } from './store';

/**
 * Builds the job's run graph from its stored events and keeps it; archiving again rebuilds it (idempotent). `outcome`
 * is the job's terminal status when it archives itself just before emitting its terminal event.
 */
export async function archiveRunGraph(
  pool: Pool,
  jobId: string,
  outcome?: Extract<JobStatus, 'completed' | 'failed' | 'cancelled'>,
): Promise<RunGraph | undefined> {
  const events = [];
  for (let after = 0; ;) {
    const page = await listEventsAfter(pool, jobId, after);
    events.push(...page);
    const last = page.at(-1);
    if (!last) break;
    after = last.sequence;
  }
  if (events.length === 0) return undefined;
  const graph = buildRunGraph(events, outcome && { status: outcome, at: new Date().toISOString() });
  await pool.query(
    `INSERT INTO job_run_graphs (job_id, workflow_id, graph) VALUES ($1, $2, $3)
     ON CONFLICT (job_id) DO UPDATE SET graph = EXCLUDED.graph, archived_at = now()`,
    [jobId, graph.workflow_id, JSON.stringify(graph)],
  );
  return graph;
}

/** The archived run graph of one of the workflow's jobs, or of its most recently archived one. */
export async function findRunGraph(pool: Pool, workflowId: string, jobId?: string): Promise<RunGraph | undefined> {
  const { rows } = await pool.query<{ graph: RunGraph }>(
    `SELECT graph FROM job_run_graphs
      WHERE workflow_id = $1 AND ($2::text IS NULL OR job_id = $2)
      ORDER BY archived_at DESC, job_id DESC
      LIMIT 1`,
    [workflowId, jobId ?? null],
  );
  return rows[0]?.graph;
}
