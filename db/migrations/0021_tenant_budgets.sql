-- Monthly budgets of orgs and projects (docs/budgets.md), beside the identity service's per-user budgets. They live
-- here, in the ingest service's database, because orgs and projects are this service's data (api_tokens.org_id,
-- projects), the spend they are held to is this service's ledger (job_runs.cost_usd), and the checks that read them
-- run here (admission) and, later, in the workers (before each model call), which reach only this database.
--
-- One row per budget: an org's has a null project_slug, a project's names its (org_id, slug). No row: no budget.
CREATE TABLE tenant_budgets (
  org_id        text NOT NULL,
  project_slug  text,
  -- Monthly budget in US cents, like the identity service's users.budget_cents.
  budget_cents  integer NOT NULL CHECK (budget_cents >= 0),
  updated_by    text NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT tenant_budgets_key UNIQUE NULLS NOT DISTINCT (org_id, project_slug),
  -- A project's budget goes with the project; an org row (null slug) is not checked against projects.
  CONSTRAINT tenant_budgets_project_fkey FOREIGN KEY (org_id, project_slug)
    REFERENCES projects (org_id, slug) ON DELETE CASCADE
);

-- Every change an admin makes, with the value before and after (null: no budget).
CREATE TABLE tenant_budget_changes (
  id            bigserial PRIMARY KEY,
  org_id        text NOT NULL,
  project_slug  text,
  before_cents  integer,
  after_cents   integer,
  changed_by    text NOT NULL,
  changed_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tenant_budget_changes_target_idx ON tenant_budget_changes (org_id, project_slug, changed_at DESC);
