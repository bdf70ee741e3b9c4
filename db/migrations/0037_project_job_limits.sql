-- A project's own concurrency limit under fair scheduling (docs/scheduling.md), set by an admin
-- (PUT /v1/admin/job-slots/orgs/:org/projects/:slug). Project slugs are unique within an org only, so the key is both.
-- No row: only the org's limit (and the deployment's) applies to the project's jobs.
CREATE TABLE IF NOT EXISTS project_job_limits (
  org_id        text NOT NULL,
  project_slug  text NOT NULL,
  max_running   integer NOT NULL CHECK (max_running >= 0),
  updated_by    text NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, project_slug),
  CONSTRAINT project_job_limits_project_fkey FOREIGN KEY (org_id, project_slug)
    REFERENCES projects (org_id, slug) ON DELETE CASCADE
);
-- The grant pass counts running jobs per project.
CREATE INDEX IF NOT EXISTS job_slots_live_project_idx ON job_slots (org_id, project_slug) WHERE state <> 'released';
