-- A workflow's title as its owner set it; NULL means "not set", and the API shows the first line of the workflow's
-- first prompt instead (so a title is never stale against a prompt nobody renamed). Bounded here as well as in the
-- route, so no writer can store a title the list cannot show.
ALTER TABLE workflows ADD COLUMN title text CHECK (title IS NULL OR char_length(title) BETWEEN 1 AND 200);

-- A `#build` prompt runs the `product` scenario unless the submission named another (pure/build-directive.ts), but
-- workflows created before this migration recorded the default `build` for it, so their page named the wrong
-- scenario and seeded their agent graph from it. The same test as the job's, on the first prompt; a workflow whose
-- graph was already edited keeps its scenario (the edited graph is what runs).
UPDATE workflows w
   SET scenario = 'product'
 WHERE w.scenario = 'build'
   AND NOT EXISTS (SELECT 1 FROM workflow_graphs g WHERE g.workflow_id = w.workflow_id)
   AND (SELECT p.prompt FROM prompt_threads p
         WHERE p.workflow_id = w.workflow_id
         ORDER BY p.created_at, p.prompt_id
         LIMIT 1) ~* '(^|[^[:alnum:]_#-])#build($|[^[:alnum:]_#=-])';

-- Each listed workflow's latest job (the list's LATERAL, and the status filter, which reads it for every workflow it
-- passes over) as one index-only probe: no sort of the workflow's jobs and no heap visit for the columns the list shows.
CREATE INDEX job_runs_workflow_latest_idx
  ON job_runs (workflow_id, created_at DESC, job_id DESC) INCLUDE (status, started_at, finished_at);
