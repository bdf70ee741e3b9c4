import type { Pool } from 'pg';
import { SCHEMA_VERSION, type EventDraft, type EventEnvelope } from './envelope';

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
 * (`duplicate: true`) and consumes no sequence. Otherwise the job's next `sequence` is taken under the
 * job row's lock, so sequences are 1, 2, 3, … with no gaps.
 */
export async function appendEvent(
  pool: Pool,
  ids: EventIds,
  draft: EventDraft,
): Promise<{ envelope: EventEnvelope; duplicate: boolean }> {
  return (await appendEvents(pool, ids, [draft]))[0]!;
}

/**
 * One statement: lock the job row, drop the drafts whose keys the job has, take the next sequences
 * and insert the rest. A single statement is atomic without BEGIN/COMMIT, so a batch of events costs
 * one round trip to PostgreSQL where it cost six per event (docs/performance.md, "A job's history").
 * `fresh` numbers only the drafts not stored yet, in their order, so the new ones take consecutive sequences.
 * Two appends racing with the same key (a retry beside a live attempt) can both miss the other's row in
 * the statement's snapshot; the unique (job_id, event_key) then fails the later one, whose retry finds
 * the stored event.
 */
const APPEND_EVENTS_SQL = `
WITH job AS (
  SELECT job_id FROM job_runs WHERE job_id = $1 FOR UPDATE
), drafts AS (
  SELECT d.key, d.kind, d.role, d.envelope, d.ord
  FROM unnest($2::text[], $3::text[], $4::text[], $5::jsonb[]) WITH ORDINALITY AS d(key, kind, role, envelope, ord)
), existing AS (
  SELECT e.event_key, e.envelope FROM job_events e WHERE e.job_id = $1 AND e.event_key = ANY($2::text[])
), fresh AS (
  SELECT d.*, row_number() OVER (ORDER BY d.ord) AS n, count(*) OVER () AS total
  FROM drafts d JOIN job ON true
  WHERE NOT EXISTS (SELECT 1 FROM existing x WHERE x.event_key = d.key)
), bumped AS (
  UPDATE job_runs SET last_sequence = last_sequence + (SELECT count(*) FROM fresh), updated_at = now()
  WHERE job_id = $1 AND EXISTS (SELECT 1 FROM fresh)
  RETURNING last_sequence
), inserted AS (
  INSERT INTO job_events (job_id, sequence, event_key, kind, agent_role, occurred_at, envelope)
  SELECT $1, (b.last_sequence - f.total + f.n)::int, f.key, f.kind, f.role, $6::timestamptz,
         f.envelope || jsonb_build_object('sequence', b.last_sequence - f.total + f.n)
  FROM fresh f CROSS JOIN bumped b
  RETURNING event_key, sequence
)
SELECT (SELECT count(*) FROM job)::int AS found,
       (SELECT coalesce(jsonb_object_agg(event_key, sequence), '{}'::jsonb) FROM inserted) AS inserted,
       (SELECT coalesce(jsonb_object_agg(event_key, envelope), '{}'::jsonb) FROM existing) AS existing`;

/**
 * Stores a job's drafts in order, idempotently on each key (see appendEvent), in one statement. The
 * envelopes come back in the drafts' order; a batch repeating a key within itself is refused.
 */
export async function appendEvents(
  pool: Pool,
  ids: EventIds,
  drafts: EventDraft[],
): Promise<Array<{ envelope: EventEnvelope; duplicate: boolean }>> {
  if (drafts.length === 0) return [];
  if (new Set(drafts.map((d) => d.key)).size !== drafts.length) throw new Error('a batch of events repeats a key');
  const occurredAt = new Date().toISOString();
  const base = drafts.map((draft): Omit<EventEnvelope, 'sequence'> => ({
    schema_version: SCHEMA_VERSION,
    job_id: ids.job_id,
    workflow_id: ids.workflow_id,
    prompt_id: ids.prompt_id,
    agent_role: draft.agent_role,
    occurred_at: occurredAt,
    kind: draft.kind,
    payload: draft.payload,
  }));
  const { rows } = await pool.query<{
    found: number;
    inserted: Record<string, number>;
    existing: Record<string, EventEnvelope>;
  }>(APPEND_EVENTS_SQL, [
    ids.job_id,
    drafts.map((d) => d.key),
    drafts.map((d) => d.kind),
    drafts.map((d) => d.agent_role),
    base.map((b) => JSON.stringify(b)),
    occurredAt,
  ]);
  const row = rows[0]!;
  if (row.found !== 1) throw new JobNotRecordedError(`job ${ids.job_id} has no row yet`);
  return drafts.map((draft, i) => {
    const stored = row.existing[draft.key];
    if (stored) return { envelope: stored, duplicate: true };
    const sequence = row.inserted[draft.key];
    if (sequence === undefined) throw new Error(`event ${draft.key} was neither stored nor found`);
    // The same fields in the same order as the stored envelope, so the live channel's JSON reads as before.
    const { occurred_at, kind, payload, ...head } = base[i]!;
    return { envelope: { ...head, sequence, occurred_at, kind, payload }, duplicate: false };
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
