-- Fair scheduling between tenants (docs/scheduling.md): one row per job that asked for a slot. `queued` waits,
-- `running` holds one of its org's slots, `released` gave it back (the job ended, or the sweeper found its workflow
-- closed). Every grant decision reads and writes these rows in one transaction under one advisory lock, so every API
-- and worker replica agrees on who holds a slot.
CREATE TABLE IF NOT EXISTS job_slots (
  job_id        text PRIMARY KEY,
  org_id        text NOT NULL,
  project_slug  text,
  priority      integer NOT NULL DEFAULT 0,
  state         text NOT NULL CHECK (state IN ('queued', 'running', 'released')),
  -- Enqueue order: ties of priority within an org, and plain FIFO with fairness off.
  seq           bigserial,
  enqueued_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  granted_at    timestamptz,
  released_at   timestamptz
);
CREATE INDEX IF NOT EXISTS job_slots_live_idx ON job_slots (state, org_id) WHERE state <> 'released';
CREATE INDEX IF NOT EXISTS job_slots_last_grant_idx ON job_slots (org_id, granted_at);

-- An org's own concurrency limit, set by an admin (PUT /v1/admin/job-slots/orgs/:org); no row: the deployment's
-- JOB_SLOTS_PER_ORG.
CREATE TABLE IF NOT EXISTS org_job_limits (
  org_id       text PRIMARY KEY,
  max_running  integer NOT NULL CHECK (max_running >= 0),
  updated_by   text NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
