import type { Pool, PoolClient } from 'pg';

/** One row of the chat-thread mapping: a chat thread and the workflow its turns run in. */
export interface ChatThreadRow {
  channel: string;
  thread_ts: string;
  workflow_id: string;
  user_id: string | null;
  last_job_id: string;
  created_at: Date;
  updated_at: Date;
}

export async function getChatThread(
  pool: Pool | PoolClient,
  channel: string,
  threadTs: string,
): Promise<ChatThreadRow | undefined> {
  const { rows } = await pool.query<ChatThreadRow>('SELECT * FROM chat_threads WHERE channel = $1 AND thread_ts = $2', [
    channel,
    threadTs,
  ]);
  return rows[0];
}

export interface ChatTurnRecord {
  channel: string;
  threadTs: string;
  workflowId: string;
  userId?: string;
  jobId: string;
}

/**
 * Records the job a thread's turn started: creates the mapping on the thread's first turn, later moves `last_job_id`
 * on. Idempotent. The caller holds the thread's turn claim, so two writers never race for one thread.
 */
export async function recordChatTurn(pool: Pool | PoolClient, turn: ChatTurnRecord): Promise<ChatThreadRow> {
  const { rows } = await pool.query<ChatThreadRow>(
    `INSERT INTO chat_threads (channel, thread_ts, workflow_id, user_id, last_job_id)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (channel, thread_ts) DO UPDATE
        SET last_job_id = EXCLUDED.last_job_id,
            user_id = COALESCE(EXCLUDED.user_id, chat_threads.user_id),
            updated_at = now()
     RETURNING *`,
    [turn.channel, turn.threadTs, turn.workflowId, turn.userId ?? null, turn.jobId],
  );
  return rows[0]!;
}

/** The threads a chat user last spoke in, newest first (the reverse lookup, through the partial user index). */
export async function listChatThreadsOfUser(
  pool: Pool | PoolClient,
  userId: string,
  limit = 20,
): Promise<ChatThreadRow[]> {
  const { rows } = await pool.query<ChatThreadRow>(
    'SELECT * FROM chat_threads WHERE user_id = $1 ORDER BY updated_at DESC LIMIT $2',
    [userId, limit],
  );
  return rows;
}

/**
 * Claims a thread's turn for `claimant` (the delivery's event id) in one statement: true for exactly one of any number
 * of concurrent callers. A claim older than `staleAfterSeconds` (its holder crashed) is taken over.
 */
export async function claimChatThread(
  pool: Pool | PoolClient,
  thread: { channel: string; threadTs: string },
  claimant: string,
  staleAfterSeconds: number,
): Promise<boolean> {
  const { rows } = await pool.query(
    `INSERT INTO chat_thread_claims (channel, thread_ts, claimed_by) VALUES ($1, $2, $3)
     ON CONFLICT (channel, thread_ts) DO UPDATE
        SET claimed_by = EXCLUDED.claimed_by, claimed_at = now()
      WHERE chat_thread_claims.claimed_at < now() - make_interval(secs => $4)
     RETURNING claimed_by`,
    [thread.channel, thread.threadTs, claimant, staleAfterSeconds],
  );
  return rows.length === 1;
}

/** Gives a turn claim back; a claim since taken over by someone else is left alone. */
export async function releaseChatThread(
  pool: Pool | PoolClient,
  thread: { channel: string; threadTs: string },
  claimant: string,
): Promise<void> {
  await pool.query('DELETE FROM chat_thread_claims WHERE channel = $1 AND thread_ts = $2 AND claimed_by = $3', [
    thread.channel,
    thread.threadTs,
    claimant,
  ]);
}
