-- Follow-up policies (docs/follow-up-policies.md). A workflow's policy for a prompt that arrives while one of its jobs
-- has not finished; NULL when none was set (the API then amends, team chat replies that it is still working).
ALTER TABLE workflows ADD COLUMN IF NOT EXISTS follow_up_policy text
  CHECK (follow_up_policy IN ('amend', 'enqueue', 'interrupt', 'reject'));

-- A job started by a follow-up policy: the policy that applied and the job it waits for (enqueue) or interrupted and
-- carries the workspace of (interrupt). NULL for every other job.
ALTER TABLE job_runs ADD COLUMN IF NOT EXISTS follow_up_policy text
  CHECK (follow_up_policy IN ('amend', 'enqueue', 'interrupt', 'reject'));
ALTER TABLE job_runs ADD COLUMN IF NOT EXISTS follows_job_id text;

-- One decision at a time per workflow: the API holds this lease while it decides what a follow-up prompt does (finds
-- the unfinished job, delivers, or starts the next one), so two racing prompts are decided one after the other. A
-- lease, not a lock on a held connection: the embedded database serves one session, and a holder that died frees the
-- workflow when its lease expires.
CREATE TABLE IF NOT EXISTS workflow_follow_up_leases (
  workflow_id text PRIMARY KEY,
  holder      text NOT NULL,
  expires_at  timestamptz NOT NULL
);
