-- Issue 36 item 1: a reservation before each model call of a job, settled after it (docs/budgets.md). One row per
-- call, keyed by the level's deterministic reservation id so a retried activity reserves once. While `reserved` the
-- row's `reserved_usd` counts against the job's ceiling and its org's and project's monthly budgets; once `settled`
-- its `settled_usd` is what the call cost (and was added to job_runs.cost_usd, the ledger, in the same transaction);
-- `released` rows (the call failed or the level was cancelled before it was charged) count for nothing.
CREATE TABLE IF NOT EXISTS budget_reservations (
  reservation_id text PRIMARY KEY,
  job_id         text NOT NULL REFERENCES job_runs (job_id),
  level_id       text NOT NULL,
  provider       text NOT NULL,
  model          text NOT NULL,
  reserved_usd   numeric(12, 6) NOT NULL CHECK (reserved_usd >= 0),
  settled_usd    numeric(12, 6) CHECK (settled_usd >= 0),
  state          text NOT NULL DEFAULT 'reserved' CHECK (state IN ('reserved', 'settled', 'released')),
  created_at     timestamptz NOT NULL DEFAULT now(),
  settled_at     timestamptz
);

-- A job's reservations (its ceiling check sums them).
CREATE INDEX IF NOT EXISTS budget_reservations_job_idx ON budget_reservations (job_id);
-- The open ones across an org (the monthly budget check sums them); few at any time.
CREATE INDEX IF NOT EXISTS budget_reservations_open_idx ON budget_reservations (job_id) WHERE state = 'reserved';
