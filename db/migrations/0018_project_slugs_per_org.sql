-- Project slugs are unique per org, not across orgs: a slug another org took is free for yours, and creating it no
-- longer tells you that it exists elsewhere. References carry the org: (org_id, project_slug). Rows written before
-- this migration are not re-checked (NOT VALID); new and updated rows are.
ALTER TABLE workflows DROP CONSTRAINT IF EXISTS workflows_project_slug_fkey;
ALTER TABLE work_items DROP CONSTRAINT IF EXISTS work_items_project_slug_fkey;
ALTER TABLE projects DROP CONSTRAINT IF EXISTS projects_pkey;
-- Projects from before 0005 have no org; NULLS NOT DISTINCT keeps their slugs unique among themselves.
ALTER TABLE projects ADD CONSTRAINT projects_org_slug_key UNIQUE NULLS NOT DISTINCT (org_id, slug);
ALTER TABLE workflows ADD CONSTRAINT workflows_project_fkey
  FOREIGN KEY (org_id, project_slug) REFERENCES projects (org_id, slug) NOT VALID;
ALTER TABLE work_items ADD CONSTRAINT work_items_project_fkey
  FOREIGN KEY (org_id, project_slug) REFERENCES projects (org_id, slug) NOT VALID;
