/** Row access for initiatives, their workflows, and progress rolled up from the jobs of those workflows. */
import type { Pool, PoolClient } from 'pg';
import { newestFirstPage, rfc3339, type NewestFirstOptions } from './keyset';

type Db = Pool | PoolClient;

export interface InitiativeRow {
  initiative_id: string;
  org_id: string;
  title: string;
  goal: string | null;
  created_by: string;
  created_at: string;
}

export interface InitiativeProgress {
  workflows: number;
  work_items: number;
  work_items_done: number;
  jobs: number;
  jobs_by_status: Record<string, number>;
  /** Finished jobs over all jobs (0 when there are none). */
  jobs_finished_ratio: number;
  cost_usd: number;
}

const COLUMNS = `i.initiative_id, i.org_id, i.title, i.goal, i.created_by, ${rfc3339('i.created_at')} AS created_at`;

export async function insertInitiative(
  client: PoolClient,
  row: { initiativeId: string; orgId: string; title: string; goal?: string; createdBy: string; workflowIds: string[] },
): Promise<void> {
  await client.query(
    `INSERT INTO initiatives (initiative_id, org_id, title, goal, created_by) VALUES ($1, $2, $3, $4, $5)`,
    [row.initiativeId, row.orgId, row.title, row.goal ?? null, row.createdBy],
  );
  await client.query(
    `INSERT INTO initiative_workflows (initiative_id, workflow_id)
     SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
    [row.initiativeId, row.workflowIds],
  );
}

export async function getInitiative(db: Db, initiativeId: string): Promise<InitiativeRow | undefined> {
  const { rows } = await db.query<InitiativeRow>(`SELECT ${COLUMNS} FROM initiatives i WHERE i.initiative_id = $1`, [
    initiativeId,
  ]);
  return rows[0];
}

export function listInitiatives(pool: Pool, options: NewestFirstOptions): Promise<InitiativeRow[]> {
  return newestFirstPage<InitiativeRow>(
    pool,
    { table: 'initiatives', alias: 'i', id: 'initiative_id', columns: COLUMNS },
    options,
  );
}

/** Progress of each initiative: its workflows' jobs by status and cost, and its work items done. One query per page. */
export async function initiativeProgress(db: Db, initiativeIds: string[]): Promise<Map<string, InitiativeProgress>> {
  const { rows } = await db.query<{
    initiative_id: string;
    workflows: number;
    work_items: number;
    work_items_done: number;
    by_status: Record<string, number> | null;
    cost_usd: string;
  }>(
    `SELECT i.id AS initiative_id,
            (SELECT count(*)::int FROM initiative_workflows iw WHERE iw.initiative_id = i.id) AS workflows,
            (SELECT count(*)::int FROM work_items w WHERE w.initiative_id = i.id) AS work_items,
            (SELECT count(*)::int FROM work_items w WHERE w.initiative_id = i.id AND w.state = 'done') AS work_items_done,
            (SELECT jsonb_object_agg(s.status, s.n) FROM (
               SELECT j.status, count(*)::int AS n
                 FROM initiative_workflows iw JOIN job_runs j ON j.workflow_id = iw.workflow_id
                WHERE iw.initiative_id = i.id GROUP BY j.status) s) AS by_status,
            (SELECT COALESCE(sum(j.cost_usd), 0)::text
               FROM initiative_workflows iw JOIN job_runs j ON j.workflow_id = iw.workflow_id
              WHERE iw.initiative_id = i.id) AS cost_usd
       FROM unnest($1::text[]) AS i(id)`,
    [initiativeIds],
  );
  return new Map(
    rows.map((row) => {
      const byStatus = row.by_status ?? {};
      const jobs = Object.values(byStatus).reduce((sum, n) => sum + n, 0);
      const finished = (byStatus.completed ?? 0) + (byStatus.failed ?? 0) + (byStatus.cancelled ?? 0);
      return [
        row.initiative_id,
        {
          workflows: row.workflows,
          work_items: row.work_items,
          work_items_done: row.work_items_done,
          jobs,
          jobs_by_status: byStatus,
          jobs_finished_ratio: jobs === 0 ? 0 : Math.round((finished / jobs) * 10_000) / 10_000,
          cost_usd: Number(row.cost_usd),
        },
      ];
    }),
  );
}

/** The org of each named workflow that exists (for checking a request's workflow ids against the caller's org). */
export async function workflowOrgs(db: Db, workflowIds: string[]): Promise<Map<string, string | null>> {
  const { rows } = await db.query<{ workflow_id: string; org_id: string | null }>(
    'SELECT workflow_id, org_id FROM workflows WHERE workflow_id = ANY($1::text[])',
    [workflowIds],
  );
  return new Map(rows.map((r) => [r.workflow_id, r.org_id]));
}
