-- Projects belong to an org, like workflows and jobs; rows created before this migration keep a null org
-- and stay visible to admins only.
ALTER TABLE projects ADD COLUMN org_id text;
CREATE INDEX projects_org_idx ON projects (org_id, created_at DESC);
