/** Row access for verticals and their discovery plans. */
import type { Pool, PoolClient } from 'pg';
import { newestFirstPage, rfc3339, type NewestFirstOptions } from './keyset';

type Db = Pool | PoolClient;

export interface VerticalRow {
  vertical_id: string;
  org_id: string;
  name: string;
  description: string | null;
  status: string;
  job_id: string;
  plan: unknown;
  answer: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `vertical_id, org_id, name, description, status, job_id, plan, answer, created_by,
  ${rfc3339('created_at')} AS created_at, ${rfc3339('updated_at')} AS updated_at`;

export async function insertVertical(
  client: PoolClient,
  row: { verticalId: string; orgId: string; name: string; description?: string; jobId: string; createdBy: string },
): Promise<void> {
  await client.query(
    `INSERT INTO verticals (vertical_id, org_id, name, description, job_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [row.verticalId, row.orgId, row.name, row.description ?? null, row.jobId, row.createdBy],
  );
}

export async function getVertical(db: Db, verticalId: string): Promise<VerticalRow | undefined> {
  const { rows } = await db.query<VerticalRow>(`SELECT ${COLUMNS} FROM verticals WHERE vertical_id = $1`, [verticalId]);
  return rows[0];
}

/** Newest first; `orgId` null lists every org's (admins). */
export function listVerticals(pool: Pool, options: NewestFirstOptions): Promise<VerticalRow[]> {
  return newestFirstPage<VerticalRow>(pool, { table: 'verticals', id: 'vertical_id', columns: COLUMNS }, options);
}

export async function recordVerticalPlan(pool: Pool, verticalId: string, plan: unknown): Promise<void> {
  await pool.query(
    `UPDATE verticals SET plan = $2, status = 'awaiting_confirmation', updated_at = now()
      WHERE vertical_id = $1 AND status IN ('discovering', 'awaiting_confirmation')`,
    [verticalId, JSON.stringify(plan)],
  );
}

/** Records the person's answer; returns the plan it answered. */
export async function answerVertical(
  client: PoolClient,
  verticalId: string,
  answer: string,
  confirmed: boolean,
): Promise<unknown> {
  const { rows } = await client.query<{ plan: unknown }>(
    `UPDATE verticals SET answer = $2, status = $3, updated_at = now() WHERE vertical_id = $1 RETURNING plan`,
    [verticalId, answer, confirmed ? 'planned' : 'rejected'],
  );
  return rows[0]?.plan;
}

/** A discovery job that ended without an answer (failed or cancelled). */
export async function failVertical(pool: Pool, verticalId: string): Promise<void> {
  await pool.query(
    `UPDATE verticals SET status = 'failed', updated_at = now()
      WHERE vertical_id = $1 AND status IN ('discovering', 'awaiting_confirmation')`,
    [verticalId],
  );
}
