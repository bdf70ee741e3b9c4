import type { Pool } from 'pg';

/** A question as an answer link shows it: its text, and who answered it when someone did (any channel). */
export interface LinkedQuestion {
  question: string;
  answered_by: string | null;
}

/**
 * The `ask_user` question `callId` of a job, with who answered it (question_answers), or undefined when the job never
 * asked it. A question answered before answers were recorded reads as unanswered here; the job's validator still
 * refuses a second answer.
 */
export async function findLinkedQuestion(
  pool: Pool,
  jobId: string,
  callId: string,
): Promise<LinkedQuestion | undefined> {
  const { rows } = await pool.query<LinkedQuestion>(
    `SELECT e.envelope->'payload'->>'question' AS question, qa.answered_by
       FROM job_events e
       LEFT JOIN question_answers qa ON qa.job_id = e.job_id AND qa.call_id = $2
      WHERE e.job_id = $1 AND e.kind = 'ask_user' AND e.envelope->'payload'->>'call_id' = $2
      ORDER BY e.sequence LIMIT 1`,
    [jobId, callId],
  );
  return rows[0];
}

/** Who answered question `callId` of a job, through any channel; undefined while nobody has (or it is not recorded yet). */
export async function questionAnsweredBy(pool: Pool, jobId: string, callId: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ answered_by: string }>(
    'SELECT answered_by FROM question_answers WHERE job_id = $1 AND call_id = $2',
    [jobId, callId],
  );
  return rows[0]?.answered_by;
}

export interface LinkUse {
  linkId: string;
  jobId: string;
  kind: 'question' | 'approval' | 'task';
  targetId: string;
  expiresAt: Date;
}

/** Claims a link for one use: true for the first claim, false when it was already used (or is being used). */
export async function claimLink(pool: Pool, use: LinkUse): Promise<boolean> {
  const { rowCount } = await pool.query(
    `INSERT INTO answer_links_used (link_id, job_id, kind, target_id, expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (link_id) DO NOTHING`,
    [use.linkId, use.jobId, use.kind, use.targetId, use.expiresAt],
  );
  return rowCount === 1;
}

/** Gives a claim back: the answer was not taken (someone else answered first, or the job did not respond). */
export async function releaseLink(pool: Pool, linkId: string): Promise<void> {
  await pool.query('DELETE FROM answer_links_used WHERE link_id = $1', [linkId]);
}

/** Whether the link was used (its answer taken, or being handed over right now). */
export async function linkUsed(pool: Pool, linkId: string): Promise<boolean> {
  const { rowCount } = await pool.query('SELECT 1 FROM answer_links_used WHERE link_id = $1', [linkId]);
  return rowCount === 1;
}
