/** Row access for work items (addressed by slug within their org). */
import type { Pool, PoolClient } from 'pg';
import { rfc3339 } from './keyset';

type Db = Pool | PoolClient;

export interface WorkItemRow {
  org_id: string;
  slug: string;
  work_type: string;
  title: string;
  description: string | null;
  project_slug: string | null;
  initiative_id: string | null;
  state: string;
  plan: unknown;
  plan_version: number;
  replan_reason: string | null;
  workflow_id: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/**
 * A started item's state follows its job: the job's terminal status is read here, so a client that has seen the job's
 * `final` already reads `done` (the work item's own record of it is written a moment later, after the job returns).
 */
const STATE = `CASE WHEN w.state = 'in_progress' AND latest.status = 'completed' THEN 'done'
                    WHEN w.state = 'in_progress' AND latest.status IN ('failed', 'cancelled') THEN 'failed'
                    ELSE w.state END`;

const FROM = `work_items w LEFT JOIN LATERAL (
    SELECT j.status FROM job_runs j WHERE j.workflow_id = w.workflow_id ORDER BY j.created_at DESC, j.job_id DESC LIMIT 1
  ) latest ON true`;

const COLUMNS = `w.org_id, w.slug, w.work_type, w.title, w.description, w.project_slug, w.initiative_id, ${STATE} AS state,
  w.plan, w.plan_version, w.replan_reason, w.workflow_id, w.created_by, ${rfc3339('w.created_at')} AS created_at,
  ${rfc3339('w.updated_at')} AS updated_at`;

/** False when the org already has a work item with this slug. */
export async function insertWorkItem(
  db: Db,
  row: {
    orgId: string;
    slug: string;
    workType: string;
    title: string;
    description?: string;
    projectSlug?: string;
    initiativeId?: string;
    plan: unknown;
    createdBy: string;
  },
): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO work_items (org_id, slug, work_type, title, description, project_slug, initiative_id, plan,
                             plan_version, state, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, 'planned', $9)
     ON CONFLICT (org_id, slug) DO NOTHING`,
    [
      row.orgId,
      row.slug,
      row.workType,
      row.title,
      row.description ?? null,
      row.projectSlug ?? null,
      row.initiativeId ?? null,
      JSON.stringify(row.plan),
      row.createdBy,
    ],
  );
  return result.rowCount === 1;
}

export async function getWorkItem(db: Db, orgId: string, slug: string): Promise<WorkItemRow | undefined> {
  const { rows } = await db.query<WorkItemRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE w.org_id = $1 AND w.slug = $2`, [
    orgId,
    slug,
  ]);
  return rows[0];
}

export async function listWorkItems(
  pool: Pool,
  options: {
    orgId: string | null;
    projectSlug?: string;
    initiativeId?: string;
    state?: string;
    limit: number;
    after?: [string, string, string];
  },
): Promise<WorkItemRow[]> {
  const values: unknown[] = [];
  const param = (v: unknown) => `$${values.push(v)}`;
  const where: string[] = [];
  if (options.orgId !== null) where.push(`w.org_id = ${param(options.orgId)}`);
  if (options.projectSlug) where.push(`w.project_slug = ${param(options.projectSlug)}`);
  if (options.initiativeId) where.push(`w.initiative_id = ${param(options.initiativeId)}`);
  if (options.state) where.push(`${STATE} = ${param(options.state)}`);
  if (options.after) {
    where.push(
      `(w.created_at, w.slug COLLATE "C", w.org_id COLLATE "C") < (${param(options.after[0])}::timestamptz, ${param(options.after[1])}, ${param(options.after[2])})`,
    );
  }
  const { rows } = await pool.query<WorkItemRow>(
    `SELECT ${COLUMNS} FROM ${FROM} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY w.created_at DESC, w.slug COLLATE "C" DESC, w.org_id COLLATE "C" DESC LIMIT ${param(options.limit)}`,
    values,
  );
  return rows;
}

/** Stores a new plan version; a stale `expectedVersion` stores nothing (false). */
export async function storeReplan(
  pool: Pool,
  input: { orgId: string; slug: string; expectedVersion: number; plan: unknown; reason: string },
): Promise<boolean> {
  const result = await pool.query(
    `UPDATE work_items SET plan = $4, plan_version = plan_version + 1, replan_reason = $5, updated_at = now()
      WHERE org_id = $1 AND slug = $2 AND plan_version = $3`,
    [input.orgId, input.slug, input.expectedVersion, JSON.stringify(input.plan), input.reason],
  );
  return result.rowCount === 1;
}

/** Links the work item to the workflow its job runs in (and to its initiative's workflows), in the start's transaction. */
export async function attachWorkItemWorkflow(client: PoolClient, item: WorkItemRow, workflowId: string): Promise<void> {
  await client.query(
    `UPDATE work_items SET workflow_id = $3, state = 'in_progress', updated_at = now() WHERE org_id = $1 AND slug = $2`,
    [item.org_id, item.slug, workflowId],
  );
  if (item.initiative_id) {
    await client.query(
      `INSERT INTO initiative_workflows (initiative_id, workflow_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [item.initiative_id, workflowId],
    );
  }
}

export async function setWorkItemState(pool: Pool, orgId: string, slug: string, state: string): Promise<void> {
  await pool.query('UPDATE work_items SET state = $3, updated_at = now() WHERE org_id = $1 AND slug = $2', [
    orgId,
    slug,
    state,
  ]);
}
