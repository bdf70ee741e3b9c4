import type { Pool } from 'pg';
import { withTransaction } from './transaction';
import type { Queryable } from './users';

/**
 * A project's approval policy (migration 0030_approval_policies.sql). The document was checked when stored
 * (approvals/policy-schema.ts); readers that act on it check it again, in case the schema moved on since.
 */
export interface ApprovalPolicyRow {
  org_id: string;
  project_slug: string;
  policy: unknown;
  /** The YAML text the admin sent (migration 0035); null when the policy was sent as JSON. */
  policy_yaml: string | null;
  updated_by: string;
  updated_at: Date;
}

const COLUMNS = 'org_id, project_slug, policy, policy_yaml, updated_by, updated_at';

/** One change of a project's policy (migration 0035_approval_policy_history.sql): set, or removed (`policy` null). */
export interface ApprovalPolicyChangeRow {
  change_id: string;
  org_id: string;
  project_slug: string;
  policy: unknown;
  policy_yaml: string | null;
  changed_by: string;
  changed_at: Date;
}

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

/**
 * Stores (replaces) a project's policy and records the change in its history, in one transaction; undefined when the
 * project does not exist (nothing stored, nothing recorded).
 */
export async function setApprovalPolicy(
  pool: Pool,
  change: { orgId: string; projectSlug: string; policy: unknown; policyYaml: string | null; updatedBy: string },
): Promise<ApprovalPolicyRow | undefined> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<ApprovalPolicyRow>(
      `INSERT INTO approval_policies (org_id, project_slug, policy, policy_yaml, updated_by)
       SELECT org_id, slug, $3, $4, $5 FROM projects WHERE org_id = $1 AND slug = $2
       ON CONFLICT (org_id, project_slug) DO UPDATE SET policy = EXCLUDED.policy, policy_yaml = EXCLUDED.policy_yaml,
         updated_by = EXCLUDED.updated_by, updated_at = now()
       RETURNING ${COLUMNS}`,
      [change.orgId, change.projectSlug, JSON.stringify(change.policy), change.policyYaml, change.updatedBy],
    );
    const row = rows[0];
    if (row) await recordChange(client, row.org_id, row.project_slug, row.policy, row.policy_yaml, row.updated_by);
    return row;
  });
}

/** Removes a project's policy, recording the removal in its history; false when it had none. */
export async function deleteApprovalPolicy(
  pool: Pool,
  orgId: string,
  projectSlug: string,
  removedBy: string,
): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rowCount } = await client.query('DELETE FROM approval_policies WHERE org_id = $1 AND project_slug = $2', [
      orgId,
      projectSlug,
    ]);
    if (!rowCount) return false;
    await recordChange(client, orgId, projectSlug, null, null, removedBy);
    return true;
  });
}

async function recordChange(
  db: Queryable,
  orgId: string,
  projectSlug: string,
  policy: unknown,
  policyYaml: string | null,
  changedBy: string,
): Promise<void> {
  await db.query(
    `INSERT INTO approval_policy_history (org_id, project_slug, policy, policy_yaml, changed_by)
     VALUES ($1, $2, $3, $4, $5)`,
    [orgId, projectSlug, policy === null ? null : JSON.stringify(policy), policyYaml, changedBy],
  );
}

/** The project's policy changes, newest first (at most `limit`). */
export async function approvalPolicyHistory(
  db: Queryable,
  orgId: string,
  projectSlug: string,
  limit: number,
): Promise<ApprovalPolicyChangeRow[]> {
  const { rows } = await db.query<ApprovalPolicyChangeRow>(
    `SELECT change_id::text AS change_id, org_id, project_slug, policy, policy_yaml, changed_by, changed_at
       FROM approval_policy_history
      WHERE org_id = $1 AND project_slug = $2
      ORDER BY change_id DESC
      LIMIT $3`,
    [orgId, projectSlug, limit],
  );
  return rows;
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
