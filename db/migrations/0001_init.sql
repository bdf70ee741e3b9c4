-- Projects, workflows (wf-<n>), prompt threads (pt-<n>), job runs, job events and API tokens.

CREATE SEQUENCE workflow_id_seq;
CREATE SEQUENCE prompt_id_seq;

CREATE TABLE projects (
  slug        text PRIMARY KEY,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE workflows (
  workflow_id   text PRIMARY KEY,
  project_slug  text REFERENCES projects (slug),
  created_by    text NOT NULL DEFAULT 'user',
  org_id        text,
  hidden        boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE prompt_threads (
  prompt_id    text PRIMARY KEY,
  workflow_id  text NOT NULL REFERENCES workflows (workflow_id),
  prompt       text NOT NULL,
  created_by   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX prompt_threads_workflow_idx ON prompt_threads (workflow_id);

CREATE TABLE job_runs (
  job_id         text PRIMARY KEY,
  workflow_id    text NOT NULL REFERENCES workflows (workflow_id),
  prompt_id      text NOT NULL REFERENCES prompt_threads (prompt_id),
  status         text NOT NULL,
  model_tier     text,
  created_by     text NOT NULL,
  org_id         text,
  task_queue     text NOT NULL,
  last_sequence  integer NOT NULL DEFAULT 0,
  summary        text,
  error          jsonb,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  started_at     timestamptz,
  finished_at    timestamptz
);
CREATE INDEX job_runs_workflow_idx ON job_runs (workflow_id);

-- One row per event; (job_id, event_key) makes appends idempotent, (job_id, sequence) orders replay.
CREATE TABLE job_events (
  job_id       text NOT NULL REFERENCES job_runs (job_id),
  sequence     integer NOT NULL,
  event_key    text NOT NULL,
  kind         text NOT NULL,
  agent_role   text NOT NULL,
  occurred_at  timestamptz NOT NULL,
  envelope     jsonb NOT NULL,
  PRIMARY KEY (job_id, sequence),
  UNIQUE (job_id, event_key)
);

-- Files an L4 executor wrote; the bytes live in the job's workspace directory.
CREATE TABLE job_files (
  job_id      text NOT NULL REFERENCES job_runs (job_id),
  path        text NOT NULL,
  sha256      text NOT NULL,
  size_bytes  integer NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, path)
);

-- Only the SHA-256 of a token is stored; the token itself is shown once at creation.
CREATE TABLE api_tokens (
  token_id      text PRIMARY KEY,
  token_hash    text NOT NULL UNIQUE,
  user_id       text NOT NULL,
  org_id        text NOT NULL,
  is_admin      boolean NOT NULL DEFAULT false,
  label         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
