-- Capabilities (the org's registry, its activation ledger, acquisition roadmaps and their units), verticals, work
-- items, initiatives, rules and facts kept by command intents without a job, and per-model usage for GET /v1/stats.
-- Every row carries the org it belongs to: visible to that org's tokens and to admins, to others it does not exist.

-- The registry: one row per (org, capability). Rows of the built-in catalog are written on first use by an org;
-- `requirements` and `units` are copied from the catalog (or given when planning a custom capability), so a catalog
-- change never rewrites what an org already acquired.
CREATE TABLE capabilities (
  org_id        text NOT NULL,
  name          text NOT NULL,
  title         text NOT NULL,
  description   text NOT NULL,
  status        text NOT NULL DEFAULT 'available' CHECK (status IN ('available', 'acquiring', 'active', 'blocked')),
  requirements  jsonb NOT NULL,
  units         jsonb NOT NULL,
  verification  jsonb NOT NULL,
  roadmap_id    text,
  activated_at  timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, name)
);
-- The admin's registry spans orgs, ordered by (name, org_id).
CREATE INDEX capabilities_name_idx ON capabilities (name COLLATE "C", org_id COLLATE "C");

CREATE TABLE capability_roadmaps (
  roadmap_id      text PRIMARY KEY,
  org_id          text NOT NULL,
  capability      text NOT NULL,
  -- The job that carries the roadmap's events: its own roadmap job, or a work item's job that acquires on the way.
  job_id          text NOT NULL REFERENCES job_runs (job_id),
  reason          text,
  status          text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'acquired', 'blocked', 'failed', 'cancelled')),
  blocked_reason  text,
  action_needed   text,
  created_by      text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz,
  FOREIGN KEY (org_id, capability) REFERENCES capabilities (org_id, name)
);
CREATE INDEX capability_roadmaps_org_idx ON capability_roadmaps (org_id, created_at DESC, roadmap_id COLLATE "C" DESC);
-- At most one roadmap acquires a capability at a time in an org.
CREATE UNIQUE INDEX capability_roadmaps_running_idx ON capability_roadmaps (org_id, capability) WHERE status = 'running';

CREATE TABLE roadmap_units (
  roadmap_id   text NOT NULL REFERENCES capability_roadmaps (roadmap_id),
  position     integer NOT NULL,
  unit_key     text NOT NULL,
  kind         text NOT NULL,
  title        text NOT NULL,
  artifact     text NOT NULL,
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'verified', 'failed', 'blocked')),
  attempts     integer NOT NULL DEFAULT 0,
  last_error   text,
  evidence     jsonb,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (roadmap_id, position)
);

-- Every activation and deactivation of a capability: when, by which roadmap or person, with the evidence.
CREATE TABLE capability_ledger (
  entry_id     bigserial PRIMARY KEY,
  org_id       text NOT NULL,
  capability   text NOT NULL,
  action       text NOT NULL CHECK (action IN ('activated', 'deactivated')),
  roadmap_id   text REFERENCES capability_roadmaps (roadmap_id),
  actor        text NOT NULL,
  reason       text,
  evidence     jsonb NOT NULL DEFAULT '[]',
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX capability_ledger_org_idx ON capability_ledger (org_id, entry_id DESC);

CREATE TABLE verticals (
  vertical_id   text PRIMARY KEY,
  org_id        text NOT NULL,
  name          text NOT NULL,
  description   text,
  status        text NOT NULL DEFAULT 'discovering'
                CHECK (status IN ('discovering', 'awaiting_confirmation', 'planned', 'rejected', 'failed')),
  job_id        text NOT NULL REFERENCES job_runs (job_id),
  plan          jsonb,
  answer        text,
  created_by    text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verticals_org_idx ON verticals (org_id, created_at DESC, vertical_id COLLATE "C" DESC);
CREATE INDEX verticals_all_idx ON verticals (created_at DESC, vertical_id COLLATE "C" DESC);

CREATE TABLE initiatives (
  initiative_id  text PRIMARY KEY,
  org_id         text NOT NULL,
  title          text NOT NULL,
  goal           text,
  created_by     text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX initiatives_org_idx ON initiatives (org_id, created_at DESC, initiative_id COLLATE "C" DESC);
CREATE INDEX initiatives_all_idx ON initiatives (created_at DESC, initiative_id COLLATE "C" DESC);

CREATE TABLE initiative_workflows (
  initiative_id  text NOT NULL REFERENCES initiatives (initiative_id),
  workflow_id    text NOT NULL REFERENCES workflows (workflow_id),
  added_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (initiative_id, workflow_id)
);

-- Work items are addressed by slug within their org (the API's :slug).
CREATE TABLE work_items (
  org_id         text NOT NULL,
  slug           text NOT NULL,
  work_type      text NOT NULL,
  title          text NOT NULL,
  description    text,
  project_slug   text REFERENCES projects (slug),
  initiative_id  text REFERENCES initiatives (initiative_id),
  state          text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'planned', 'in_progress', 'done', 'failed')),
  plan           jsonb,
  plan_version   integer NOT NULL DEFAULT 0,
  replan_reason  text,
  workflow_id    text REFERENCES workflows (workflow_id),
  created_by     text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, slug)
);
CREATE INDEX work_items_org_idx ON work_items (org_id, created_at DESC, slug COLLATE "C" DESC);
CREATE INDEX work_items_all_idx ON work_items (created_at DESC, slug COLLATE "C" DESC, org_id);
CREATE INDEX work_items_initiative_idx ON work_items (initiative_id) WHERE initiative_id IS NOT NULL;

-- Rules and facts kept by POST /v1/command/intents, per workflow (a job keeps them in its files, as before).
CREATE TABLE workflow_notes (
  note_id      bigserial PRIMARY KEY,
  workflow_id  text NOT NULL REFERENCES workflows (workflow_id),
  kind         text NOT NULL CHECK (kind IN ('rule', 'fact')),
  text         text NOT NULL,
  created_by   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX workflow_notes_workflow_idx ON workflow_notes (workflow_id, note_id);

-- GET /v1/stats aggregates job runs by org and creation time. A job's project lives on its workflow; a copy on the job
-- row (set when the row is written; a workflow's project never changes) lets the aggregate read job_runs alone, and
-- the covering indexes let it read only the index for an org's window (admins: every org's).
ALTER TABLE job_runs ADD COLUMN stats_project text;
UPDATE job_runs j SET stats_project = w.project_slug FROM workflows w WHERE w.workflow_id = j.workflow_id;

-- The migration's search_path is kept with the function: writers whose session resolves another schema
-- (the identity service's pool, a shared embedded connection) still reach this schema's tables.
CREATE FUNCTION keel_job_runs_stats_project() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  SELECT project_slug INTO NEW.stats_project FROM workflows WHERE workflow_id = NEW.workflow_id;
  RETURN NEW;
END $$;

CREATE TRIGGER job_runs_stats_project BEFORE INSERT ON job_runs
  FOR EACH ROW EXECUTE FUNCTION keel_job_runs_stats_project();

CREATE INDEX job_runs_stats_org_idx ON job_runs (org_id, created_at)
  INCLUDE (status, model_tier, cost_usd, reasoning_tokens, max_effort, stats_project);
CREATE INDEX job_runs_stats_all_idx ON job_runs (created_at)
  INCLUDE (org_id, status, model_tier, cost_usd, reasoning_tokens, max_effort, stats_project);

-- Per job and answering model: what its levels cost and how many fallback hops they took. Kept by a trigger on the
-- event log, so every writer of level_finished / model_fallback events feeds it without knowing about stats. The
-- job's org, creation time and project are copied in, so GET /v1/stats filters this table by its own index.
CREATE TABLE job_model_usage (
  job_id            text NOT NULL REFERENCES job_runs (job_id),
  provider          text NOT NULL,
  model             text NOT NULL,
  org_id            text,
  created_at        timestamptz NOT NULL,
  project_slug      text,
  calls             integer NOT NULL DEFAULT 0,
  cost_usd          numeric(14, 6) NOT NULL DEFAULT 0,
  reasoning_tokens  bigint NOT NULL DEFAULT 0,
  fallbacks         integer NOT NULL DEFAULT 0,
  PRIMARY KEY (job_id, provider, model)
);
CREATE INDEX job_model_usage_org_idx ON job_model_usage (org_id, created_at)
  INCLUDE (project_slug, provider, model, calls, cost_usd, reasoning_tokens, fallbacks);
CREATE INDEX job_model_usage_all_idx ON job_model_usage (created_at)
  INCLUDE (project_slug, provider, model, calls, cost_usd, reasoning_tokens, fallbacks);

CREATE FUNCTION keel_job_model_usage() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  job record;
BEGIN
  SELECT org_id, created_at, stats_project INTO job FROM job_runs WHERE job_id = NEW.job_id;
  IF NEW.kind = 'level_finished' AND NEW.envelope #>> '{payload,model}' IS NOT NULL THEN
    INSERT INTO job_model_usage AS u (job_id, provider, model, org_id, created_at, project_slug, calls, cost_usd,
                                      reasoning_tokens)
    VALUES (NEW.job_id, COALESCE(NEW.envelope #>> '{payload,provider}', ''), NEW.envelope #>> '{payload,model}',
            job.org_id, job.created_at, job.stats_project, 1,
            COALESCE((NEW.envelope #>> '{payload,cost_usd}')::numeric, 0),
            COALESCE((NEW.envelope #>> '{payload,reasoning_tokens}')::bigint, 0))
    ON CONFLICT (job_id, provider, model) DO UPDATE
      SET calls = u.calls + 1, cost_usd = u.cost_usd + EXCLUDED.cost_usd,
          reasoning_tokens = u.reasoning_tokens + EXCLUDED.reasoning_tokens;
  ELSIF NEW.kind = 'model_fallback' THEN
    INSERT INTO job_model_usage AS u (job_id, provider, model, org_id, created_at, project_slug, fallbacks)
    VALUES (NEW.job_id, COALESCE(NEW.envelope #>> '{payload,to_provider}', ''),
            COALESCE(NEW.envelope #>> '{payload,to_model}', ''), job.org_id, job.created_at, job.stats_project, 1)
    ON CONFLICT (job_id, provider, model) DO UPDATE SET fallbacks = u.fallbacks + 1;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER job_events_model_usage AFTER INSERT ON job_events
  FOR EACH ROW WHEN (NEW.kind IN ('level_finished', 'model_fallback')) EXECUTE FUNCTION keel_job_model_usage();

-- Jobs that ran before this migration.
INSERT INTO job_model_usage (job_id, provider, model, org_id, created_at, project_slug, calls, cost_usd,
                             reasoning_tokens)
SELECT e.job_id, COALESCE(e.envelope #>> '{payload,provider}', ''), e.envelope #>> '{payload,model}',
       min(j.org_id), min(j.created_at), min(j.stats_project), count(*),
       COALESCE(sum((e.envelope #>> '{payload,cost_usd}')::numeric), 0),
       COALESCE(sum((e.envelope #>> '{payload,reasoning_tokens}')::bigint), 0)
  FROM job_events e JOIN job_runs j ON j.job_id = e.job_id
 WHERE e.kind = 'level_finished' AND e.envelope #>> '{payload,model}' IS NOT NULL
 GROUP BY 1, 2, 3;
