-- Durable approval records (`approval_requested`): a level waits on one until a human decides it.
-- A job paused on `ask_user` needs no schema change: job_runs.status is text, and `paused` is one more value of it.

CREATE TABLE approvals (
  approval_id          text PRIMARY KEY,
  job_id               text NOT NULL REFERENCES job_runs (job_id),
  workflow_id          text NOT NULL REFERENCES workflows (workflow_id),
  -- The Temporal workflow (usually a level's child workflow) the decision signal is sent to.
  waiting_workflow_id  text NOT NULL,
  role                 text NOT NULL,
  call_id              text,
  action               text NOT NULL,
  reason               text NOT NULL,
  status               text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  decided_by           text,
  decided_at           timestamptz,
  comment              text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  -- A decided approval always says who decided and when; a pending one never does.
  CONSTRAINT approvals_decision_recorded CHECK ((status = 'pending') = (decided_by IS NULL AND decided_at IS NULL))
);
-- Listing is newest first, usually filtered by status (the approvals view) or by job.
CREATE INDEX approvals_status_idx ON approvals (status, created_at DESC, approval_id DESC);
CREATE INDEX approvals_job_idx ON approvals (job_id, created_at DESC);
CREATE INDEX approvals_workflow_idx ON approvals (workflow_id, created_at DESC);
