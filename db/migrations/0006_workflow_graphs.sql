-- A workflow runs one scenario (`build` unless it was created with another); its agent graph is that scenario's
-- levels as nodes and hand-offs as edges, stored here once somebody edits it. A workflow without a row runs the
-- scenario file as it is. `version` counts edits, so a client can refuse to overwrite a change it has not seen.
ALTER TABLE workflows ADD COLUMN scenario text NOT NULL DEFAULT 'build';

CREATE TABLE workflow_graphs (
  workflow_id  text PRIMARY KEY REFERENCES workflows (workflow_id),
  graph        jsonb NOT NULL,
  version      integer NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- The run graph of a finished job, built from its events when it ends: what ran, not what was planned.
CREATE TABLE job_run_graphs (
  job_id       text PRIMARY KEY REFERENCES job_runs (job_id),
  workflow_id  text NOT NULL REFERENCES workflows (workflow_id),
  graph        jsonb NOT NULL,
  archived_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_run_graphs_workflow_idx ON job_run_graphs (workflow_id, archived_at DESC);

-- A prompt appended while a job ran is taken by that job rather than starting one: this names the job.
ALTER TABLE prompt_threads ADD COLUMN delivered_to text REFERENCES job_runs (job_id);
