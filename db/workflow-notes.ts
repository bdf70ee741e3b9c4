/** Rules and facts kept for a workflow by a command intent run without a job. */
import type { Pool } from 'pg';
import { rfc3339 } from './keyset';

export interface WorkflowNoteRow {
  note_id: string;
  workflow_id: string;
  kind: 'rule' | 'fact';
  text: string;
  created_by: string;
  created_at: string;
}

export async function insertWorkflowNote(
  pool: Pool,
  note: { workflowId: string; kind: 'rule' | 'fact'; text: string; createdBy: string },
): Promise<WorkflowNoteRow> {
  const { rows } = await pool.query<WorkflowNoteRow>(
    `INSERT INTO workflow_notes (workflow_id, kind, text, created_by) VALUES ($1, $2, $3, $4)
     RETURNING note_id::text, workflow_id, kind, text, created_by, ${rfc3339('created_at')} AS created_at`,
    [note.workflowId, note.kind, note.text, note.createdBy],
  );
  return rows[0]!;
}

/** A workflow's kept rules and facts, oldest first, paged by note id. */
export async function listWorkflowNotes(
  pool: Pool,
  options: { workflowId: string; kind?: 'rule' | 'fact'; limit: number; after?: string },
): Promise<WorkflowNoteRow[]> {
  const values: unknown[] = [options.workflowId];
  const param = (v: unknown) => `$${values.push(v)}`;
  const where = ['workflow_id = $1'];
  if (options.kind) where.push(`kind = ${param(options.kind)}`);
  if (options.after) where.push(`note_id > ${param(options.after)}::bigint`);
  const { rows } = await pool.query<WorkflowNoteRow>(
    `SELECT note_id::text, workflow_id, kind, text, created_by, ${rfc3339('created_at')} AS created_at
       FROM workflow_notes WHERE ${where.join(' AND ')} ORDER BY note_id LIMIT ${param(options.limit)}`,
    values,
  );
  return rows;
}
