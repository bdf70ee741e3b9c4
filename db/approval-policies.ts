import type { Pool } from 'pg';
import type { Queryable } from './users';

/**
 * A project's approval policy (migration 0030_approval_policies.sql). The document was checked when stored
 * (approvals/policy-schema.ts); readers that act on it check it again, in case the schema moved on since.
 */
export interface ApprovalPolicyRow {
  org_id: string;
  project_slug: string;
  policy: unknown;
  updated_by: string;
  updated_at: Date;
}

const COLUMNS = 'org_id, project_slug, policy, updated_by, updated_at';

/** Every stored policy (of one org, when named), by org and project. */
export async function listApprovalPolicies(db: Queryable, orgId: string | null): Promise<ApprovalPolicyRow[]> {
  const { rows } = await db.query<ApprovalPolicyRow>(
    `SELECT ${COLUMNS} FROM approval_policies WHERE $1::text IS NULL OR org_id = $1 ORDER BY org_id, project_slug`,
    [orgId],
  );
  return rows;
}

export async function getApprovalPolicy(
  db: Queryable,
  orgId: string,
  projectSlug: string,
): Promise<ApprovalPolicyRow | undefined> {
  const { rows } = await db.query<ApprovalPolicyRow>(
    `SELECT ${COLUMNS} FROM approval_policies WHERE org_id = $1 AND project_slug = $2`,
    [orgId, projectSlug],
  );
  return rows[0];
}

/** Stores (replaces) a project's policy; undefined when the project does not exist (the foreign key refused it). */
export async function setApprovalPolicy(
  pool: Pool,
  change: { orgId: string; projectSlug: string; policy: unknown; updatedBy: string },
): Promise<ApprovalPolicyRow | undefined> {
  const { rows } = await pool.query<ApprovalPolicyRow>(
    `INSERT INTO approval_policies (org_id, project_slug, policy, updated_by)
     SELECT org_id, slug, $3, $4 FROM projects WHERE org_id = $1 AND slug = $2
     ON CONFLICT (org_id, project_slug) DO UPDATE SET policy = EXCLUDED.policy, updated_by = EXCLUDED.updated_by,
       updated_at = now()
     RETURNING ${COLUMNS}`,
    [change.orgId, change.projectSlug, JSON.stringify(change.policy), change.updatedBy],
  );
  return rows[0];
}

/** Removes a project's policy; false when it had none. */
export async function deleteApprovalPolicy(pool: Pool, orgId: string, projectSlug: string): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM approval_policies WHERE org_id = $1 AND project_slug = $2', [
    orgId,
    projectSlug,
  ]);
  return (rowCount ?? 0) > 0;
}

/**
 * What a job's wait for a person is governed by: its project's policy (null without a project or a policy) and the
 * job's cost so far (its ledger, `job_runs.cost_usd`).
 */
export async function policyForJob(
  db: Queryable,
  jobId: string,
): Promise<{ projectSlug: string | null; policy: unknown; jobCostUsd: number }> {
  const { rows } = await db.query<{ project_slug: string | null; policy: unknown; cost_usd: string }>(
    `SELECT w.project_slug, p.policy, j.cost_usd
       FROM job_runs j
       JOIN workflows w USING (workflow_id)
       LEFT JOIN approval_policies p ON p.org_id = w.org_id AND p.project_slug = w.project_slug
      WHERE j.job_id = $1`,
    [jobId],
  );
  const row = rows[0];
  return {
    projectSlug: row?.project_slug ?? null,
    policy: row?.policy ?? null,
    jobCostUsd: Number(row?.cost_usd ?? 0),
  };
}
