import type { Pool } from 'pg';
import { rfc3339 } from './keyset';
import { TERMINAL_JOB_STATUSES } from './jobs';

/**
 * A question's state, from the job's events and the answers table: `open` while nobody answered and the job has not
 * ended; `answered` once an answer was taken (a `question_answers` row, or the level's `tool_result` for an answer
 * that came another way); `unanswered` when the job ended without one (cancelled, failed, timed out).
 */
export const QUESTION_STATES = ['open', 'answered', 'unanswered'] as const;
export type QuestionState = (typeof QUESTION_STATES)[number];

export interface QuestionRow {
  job_id: string;
  workflow_id: string;
  project_slug: string | null;
  /** The ask_user event's sequence in its job. */
  sequence: number;
  call_id: string;
  /** The level that asked, e.g. `L2.architect`. */
  role: string;
  level_id: string | null;
  question: string;
  /** RFC 3339 with microseconds, as the cursor carries it. */
  asked_at: string;
  state: QuestionState;
  answer: string | null;
  /** The user id of whoever answered through the API; null when unknown (answered before this was recorded). */
  answered_by: string | null;
  answered_at: string | null;
  org_id: string | null;
  job_created_by: string;
}

export interface QuestionFilter {
  state?: QuestionState;
  job_id?: string;
  project_slug?: string;
  /** Only questions of this org's jobs; null for every org (admins). */
  orgId: string | null;
  /** Only questions of jobs this user created (a member through the console); null for all. */
  createdBy: string | null;
  limit: number;
  /** The last row's (asked_at, job_id, sequence) of the page before. */
  after?: [string, string, number];
}

const TERMINAL = TERMINAL_JOB_STATUSES.map((s) => `'${s}'`).join(', ');

/** The state expression over the joined answer (`qa`), tool result (`r`) and job (`j`). */
const STATE_SQL = `CASE WHEN qa.call_id IS NOT NULL OR r.preview IS NOT NULL THEN 'answered'
                        WHEN j.status IN (${TERMINAL}) THEN 'unanswered'
                        ELSE 'open' END`;

/**
 * Questions (`ask_user` events) newest first across jobs, with their answer and who gave it. Keyset-paged by
 * (asked_at, job_id, sequence), the job id compared byte-wise so the order matches the cursor's.
 */
export async function listQuestions(pool: Pool, filter: QuestionFilter): Promise<QuestionRow[]> {
  const values: unknown[] = [];
  const param = (v: unknown) => `$${values.push(v)}`;
  const where: string[] = [`e.kind = 'ask_user'`];
  if (filter.job_id !== undefined) where.push(`e.job_id = ${param(filter.job_id)}`);
  if (filter.project_slug !== undefined) where.push(`w.project_slug = ${param(filter.project_slug)}`);
  if (filter.orgId !== null) where.push(`j.org_id = ${param(filter.orgId)}`);
  if (filter.createdBy) where.push(`j.created_by = ${param(filter.createdBy)}`);
  if (filter.state !== undefined) where.push(`${STATE_SQL} = ${param(filter.state)}`);
  if (filter.after) {
    const [time, jobId, sequence] = filter.after;
    where.push(
      `(e.occurred_at, e.job_id COLLATE "C", e.sequence) < (${param(time)}::timestamptz, ${param(jobId)}, ${param(sequence)})`,
    );
  }
  const { rows } = await pool.query<QuestionRow>(
    `SELECT e.job_id, j.workflow_id, w.project_slug, e.sequence,
            e.envelope->'payload'->>'call_id' AS call_id,
            e.agent_role AS role,
            e.envelope->'payload'->>'level_id' AS level_id,
            e.envelope->'payload'->>'question' AS question,
            ${rfc3339('e.occurred_at')} AS asked_at,
            ${STATE_SQL} AS state,
            COALESCE(qa.answer, r.preview) AS answer,
            qa.answered_by,
            CASE WHEN qa.answered_at IS NOT NULL THEN ${rfc3339('qa.answered_at')}
                 WHEN r.occurred_at IS NOT NULL THEN ${rfc3339('r.occurred_at')} END AS answered_at,
            j.org_id, j.created_by AS job_created_by
       FROM job_events e
       JOIN job_runs j ON j.job_id = e.job_id
       JOIN workflows w ON w.workflow_id = j.workflow_id
       LEFT JOIN question_answers qa ON qa.job_id = e.job_id AND qa.call_id = e.envelope->'payload'->>'call_id'
       LEFT JOIN LATERAL (
         SELECT t.envelope->'payload'->>'preview' AS preview, t.occurred_at FROM job_events t
          WHERE t.job_id = e.job_id AND t.kind = 'tool_result' AND t.sequence > e.sequence
            AND t.envelope->'payload'->>'call_id' = e.envelope->'payload'->>'call_id'
          ORDER BY t.sequence LIMIT 1
       ) r ON true
      WHERE ${where.join(' AND ')}
      ORDER BY e.occurred_at DESC, e.job_id COLLATE "C" DESC, e.sequence DESC
      LIMIT ${param(filter.limit)}`,
    values,
  );
  return rows;
}

/**
 * Records who answered a question once the job took the answer. Idempotent: the first answer the job took is the one
 * kept (a second resume of the same call is refused by the job before this runs).
 */
export async function recordAnswer(
  pool: Pool,
  answer: { jobId: string; callId: string; answer: string; answeredBy: string },
): Promise<void> {
  await pool.query(
    `INSERT INTO question_answers (job_id, call_id, answer, answered_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (job_id, call_id) DO NOTHING`,
    [answer.jobId, answer.callId, answer.answer, answer.answeredBy],
  );
}
