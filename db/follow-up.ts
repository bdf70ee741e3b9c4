/** The rows behind follow-up policies (docs/follow-up-policies.md): the workflow's policy, its decision lease. */
import crypto from 'node:crypto';
import type { Pool } from 'pg';

/** The policies the column's CHECK allows (migration 0029); pure/follow-up-policy.ts names the same four. */
export type FollowUpPolicy = 'amend' | 'enqueue' | 'interrupt' | 'reject';

/** The workflow's own policy; null when none was set (or there is no such workflow). */
export async function workflowFollowUpPolicy(pool: Pool, workflowId: string): Promise<FollowUpPolicy | null> {
  const { rows } = await pool.query<{ follow_up_policy: FollowUpPolicy | null }>(
    'SELECT follow_up_policy FROM workflows WHERE workflow_id = $1',
    [workflowId],
  );
  return rows[0]?.follow_up_policy ?? null;
}

/** Sets (null clears) the workflow's policy without touching updated_at: a setting, not activity. */
export async function setWorkflowFollowUpPolicy(
  pool: Pool,
  workflowId: string,
  policy: FollowUpPolicy | null,
): Promise<boolean> {
  const result = await pool.query('UPDATE workflows SET follow_up_policy = $2 WHERE workflow_id = $1', [
    workflowId,
    policy,
  ]);
  return result.rowCount === 1;
}

/** Takes the workflow's decision lease for `ttlMs` unless another holder's lease is still live. */
export async function tryTakeFollowUpLease(
  pool: Pool,
  workflowId: string,
  holder: string,
  ttlMs: number,
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `INSERT INTO workflow_follow_up_leases (workflow_id, holder, expires_at)
     VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000))
     ON CONFLICT (workflow_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
      WHERE workflow_follow_up_leases.expires_at < now()`,
    [workflowId, holder, ttlMs],
  );
  return rowCount === 1;
}

export async function releaseFollowUpLease(pool: Pool, workflowId: string, holder: string): Promise<void> {
  await pool.query('DELETE FROM workflow_follow_up_leases WHERE workflow_id = $1 AND holder = $2', [
    workflowId,
    holder,
  ]);
}

export const newLeaseHolder = (): string => crypto.randomUUID();

/**
 * The manifest a job that carries `jobId`'s workspace restores: the last snapshot `jobId` recorded, else (it ran no
 * level, e.g. it was interrupted itself before its first) the one it carried, followed back along the carries.
 */
export async function carriedManifest(pool: Pool, jobId: string): Promise<string | null> {
  const { rows } = await pool.query<{ manifest_sha256: string | null }>(
    `WITH RECURSIVE chain (job_id, depth) AS (
       SELECT $1::text, 0
       UNION ALL
       SELECT j.follows_job_id, c.depth + 1 FROM chain c JOIN job_runs j ON j.job_id = c.job_id
        WHERE j.follow_up_policy = 'interrupt' AND j.follows_job_id IS NOT NULL AND c.depth < 50
     )
     SELECT (SELECT s.manifest_sha256 FROM level_run_snapshots s WHERE s.job_id = c.job_id ORDER BY s.seq DESC LIMIT 1)
            AS manifest_sha256
       FROM chain c ORDER BY c.depth`,
    [jobId],
  );
  return rows.find((r) => r.manifest_sha256 !== null)?.manifest_sha256 ?? null;
}
