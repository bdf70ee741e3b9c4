-- Forks (docs/fork-and-compare.md): a job started from another job's level run, carrying over the level runs before
-- it. One row per fork, written in the fork's submission transaction, so GET /v1/jobs/:id finds `forked_from` on the
-- fork and `forks` on the source.
CREATE TABLE IF NOT EXISTS job_forks (
  job_id             text PRIMARY KEY REFERENCES job_runs (job_id),
  source_job_id      text NOT NULL REFERENCES job_runs (job_id),
  -- The source's level run the fork starts after; null for a fork from the start.
  from_level_run_id  text,
  -- The event sequence the caller named, when it named the fork point that way.
  from_sequence      integer,
  -- The source's level runs carried over, in the order they ran.
  carried_level_ids  text[] NOT NULL DEFAULT '{}',
  prompt_patched     boolean NOT NULL DEFAULT false,
  model_tier         text,
  created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS job_forks_source_idx ON job_forks (source_job_id, created_at);
