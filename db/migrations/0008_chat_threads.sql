-- A team-chat thread and the Keel workflow its conversation lives in: every turn of the thread is a job of that
-- workflow, and `last_job_id` is the newest. A row is written once a thread's first job has started, so every column
-- but `user_id` (who spoke last; unknown for threads created by an operator) always has a value.
-- IF NOT EXISTS throughout: the same statements run at boot against a database that may already hold them.
CREATE TABLE IF NOT EXISTS chat_threads (
  channel      text NOT NULL,
  thread_ts    text NOT NULL,
  workflow_id  text NOT NULL REFERENCES workflows (workflow_id),
  user_id      text,
  last_job_id  text NOT NULL REFERENCES job_runs (job_id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (channel, thread_ts)
);
-- The reverse lookup (a user's threads). Not unique: one user has many threads and user_id may be null; a unique
-- index would refuse legal rows and break schema creation at boot. Partial, because null rows are never looked up.
CREATE INDEX IF NOT EXISTS chat_threads_user_idx ON chat_threads (user_id, updated_at DESC) WHERE user_id IS NOT NULL;

-- A thread's turn claim, held from accepting a message until its turn's job is recorded above (or failed to start):
-- two near-simultaneous messages cannot both start a turn. A separate table because a thread's first turn has no
-- mapping row yet. A claim left by a crashed process is taken over once it is stale.
CREATE TABLE IF NOT EXISTS chat_thread_claims (
  channel     text NOT NULL,
  thread_ts   text NOT NULL,
  claimed_by  text NOT NULL,
  claimed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (channel, thread_ts)
);
