-- Prompt (input) and completion (output) tokens next to the reasoning tokens, per job and per job and answering
-- model. level_finished carries each level's sums over its LLM calls; the usage trigger now adds them up too.
ALTER TABLE job_runs ADD COLUMN prompt_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE job_runs ADD COLUMN completion_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE job_model_usage ADD COLUMN prompt_tokens bigint NOT NULL DEFAULT 0;
ALTER TABLE job_model_usage ADD COLUMN completion_tokens bigint NOT NULL DEFAULT 0;

-- The stats indexes stay covering, so GET /v1/stats keeps its index-only scans.
DROP INDEX job_runs_stats_org_idx;
DROP INDEX job_runs_stats_all_idx;
CREATE INDEX job_runs_stats_org_idx ON job_runs (org_id, created_at)
  INCLUDE (status, model_tier, cost_usd, reasoning_tokens, prompt_tokens, completion_tokens, max_effort, stats_project);
CREATE INDEX job_runs_stats_all_idx ON job_runs (created_at)
  INCLUDE (org_id, status, model_tier, cost_usd, reasoning_tokens, prompt_tokens, completion_tokens, max_effort,
           stats_project);
DROP INDEX job_model_usage_org_idx;
DROP INDEX job_model_usage_all_idx;
CREATE INDEX job_model_usage_org_idx ON job_model_usage (org_id, created_at)
  INCLUDE (project_slug, provider, model, calls, cost_usd, reasoning_tokens, prompt_tokens, completion_tokens,
           fallbacks);
CREATE INDEX job_model_usage_all_idx ON job_model_usage (created_at)
  INCLUDE (project_slug, provider, model, calls, cost_usd, reasoning_tokens, prompt_tokens, completion_tokens,
           fallbacks);

CREATE OR REPLACE FUNCTION keel_job_model_usage() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  job record;
BEGIN
  SELECT org_id, created_at, stats_project INTO job FROM job_runs WHERE job_id = NEW.job_id;
  IF NEW.kind = 'level_finished' AND NEW.envelope #>> '{payload,model}' IS NOT NULL THEN
    INSERT INTO job_model_usage AS u (job_id, provider, model, org_id, created_at, project_slug, calls, cost_usd,
                                      reasoning_tokens, prompt_tokens, completion_tokens)
    VALUES (NEW.job_id, COALESCE(NEW.envelope #>> '{payload,provider}', ''), NEW.envelope #>> '{payload,model}',
            job.org_id, job.created_at, job.stats_project, 1,
            COALESCE((NEW.envelope #>> '{payload,cost_usd}')::numeric, 0),
            COALESCE((NEW.envelope #>> '{payload,reasoning_tokens}')::bigint, 0),
            COALESCE((NEW.envelope #>> '{payload,prompt_tokens}')::bigint, 0),
            COALESCE((NEW.envelope #>> '{payload,completion_tokens}')::bigint, 0))
    ON CONFLICT (job_id, provider, model) DO UPDATE
      SET calls = u.calls + 1, cost_usd = u.cost_usd + EXCLUDED.cost_usd,
          reasoning_tokens = u.reasoning_tokens + EXCLUDED.reasoning_tokens,
          prompt_tokens = u.prompt_tokens + EXCLUDED.prompt_tokens,
          completion_tokens = u.completion_tokens + EXCLUDED.completion_tokens;
  ELSIF NEW.kind = 'model_fallback' THEN
    INSERT INTO job_model_usage AS u (job_id, provider, model, org_id, created_at, project_slug, fallbacks)
    VALUES (NEW.job_id, COALESCE(NEW.envelope #>> '{payload,to_provider}', ''),
            COALESCE(NEW.envelope #>> '{payload,to_model}', ''), job.org_id, job.created_at, job.stats_project, 1)
    ON CONFLICT (job_id, provider, model) DO UPDATE SET fallbacks = u.fallbacks + 1;
  END IF;
  RETURN NEW;
END $$;
