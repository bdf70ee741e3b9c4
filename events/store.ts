import type { Pool } from 'pg';
import { SCHEMA_VERSION, type EventDraft, type EventEnvelope } from './envelope';
import { withTransaction } from '../db/transaction';

export interface EventIds {
  job_id: string;
  workflow_id: string;
  prompt_id: string;
}

/** Raised when the job has no row yet (its submission has not committed); the caller retries. */
export class JobNotRecordedError extends Error {
  override name = 'JobNotRecordedError';
}

/**
 * Stores an event idempotently: a draft whose key the job already has returns the stored envelope
 * (`duplicate: true`) and consumes no sequence. Otherwise the job's next `sequence` is taken under a
 * row lock in the same transaction, so sequences are 1, 2, 3, … with no gaps.
 */
export async function appendEvent(
  pool: Pool,
  ids: EventIds,
  draft: EventDraft,
): Promise<{ envelope: EventEnvelope; duplicate: boolean }> {
  return withTransaction(pool, async (client) => {
    const job = await client.query('SELECT last_sequence FROM job_runs WHERE job_id = $1 FOR UPDATE', [ids.job_id]);
    if (job.rowCount !== 1) throw new JobNotRecordedError(`job ${ids.job_id} has no row yet`);
    const existing = await client.query<{ envelope: EventEnvelope }>(
      'SELECT envelope FROM job_events WHERE job_id = $1 AND event_key = $2',
      [ids.job_id, draft.key],
    );
    if (existing.rows[0]) return { envelope: existing.rows[0].envelope, duplicate: true };
    const { rows } = await client.query<{ last_sequence: number }>(
      'UPDATE job_runs SET last_sequence = last_sequence + 1, updated_at = now() WHERE job_id = $1 RETURNING last_sequence',
      [ids.job_id],
    );
    const envelope: EventEnvelope = {
      schema_version: SCHEMA_VERSION,
      job_id: ids.job_id,
      workflow_id: ids.workflow_id,
      prompt_id: ids.prompt_id,
      agent_role: draft.agent_role,
      sequence: rows[0]!.last_sequence,
      occurred_at: new Date().toISOString(),
      kind: draft.kind,
      payload: draft.payload,
    };
    await client.query(
      `INSERT INTO job_events (job_id, sequence, event_key, kind, agent_role, occurred_at, envelope)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [ids.job_id, envelope.sequence, draft.key, draft.kind, draft.agent_role, envelope.occurred_at, envelope],
    );
    return { envelope, duplicate: false };
  });
}

/** The stored events of a job with `sequence` greater than `after`, in order. */
export async function listEventsAfter(pool: Pool, jobId: string, after: number, limit = 500): Promise<EventEnvelope[]> {
  const { rows } = await pool.query<{ envelope: EventEnvelope }>(
    'SELECT envelope FROM job_events WHERE job_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3',
    [jobId, after, limit],
  );
  return rows.map((r) => r.envelope);
}

/** A job's stored events of the given kinds, in order (compare reads its `level_finished` this way). */
export async function listEventsOfKinds(pool: Pool, jobId: string, kinds: readonly string[]): Promise<EventEnvelope[]> {
  const { rows } = await pool.query<{ envelope: EventEnvelope }>(
    'SELECT envelope FROM job_events WHERE job_id = $1 AND kind = ANY($2::text[]) ORDER BY sequence',
    [jobId, kinds],
  );
  return rows.map((r) => r.envelope);
}
