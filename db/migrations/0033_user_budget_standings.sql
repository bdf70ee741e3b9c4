-- Issue 36: a user's own monthly budget checked before each model call of their jobs (docs/budgets.md), not only at
-- submission. The budget is the identity service's (users.budget_cents, or its default), which the workers cannot
-- reach; admission reads it at every submission (jobs/admit.ts) and keeps the answer here, in the ingest database the
-- workers' reservations read (db/budget-reservations.ts). A resume of a job reads it again (an admin may have raised
-- it before the submitter answers `retry`). No row: the user was never admitted with a budget source configured, and
-- their jobs are held to no user budget mid-run.
CREATE TABLE IF NOT EXISTS user_budget_standings (
  user_id       text PRIMARY KEY,
  -- Monthly budget in US cents as the identity service last said it; null: no cap (an admin, a machine user).
  budget_cents  integer CHECK (budget_cents >= 0),
  read_at       timestamptz NOT NULL DEFAULT now()
);
