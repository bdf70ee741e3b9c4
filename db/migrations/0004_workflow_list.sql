-- Indexes for GET /v1/workflows, which pages newest first by (updated_at DESC, workflow_id DESC) with a keyset
-- predicate (updated_at, workflow_id) < (cursor pair). Each index puts the equality filters first and then the two
-- ordering columns in list order, so a page is one index range scan that stops after `limit` rows; no sort.
--
-- workflow_id is text (`wf-<n>`) and the tie-break is its byte-wise (COLLATE "C") order, descending, as the spec's
-- cursor pair implies: lexicographic, so `wf-9` comes before `wf-10` among rows with the same updated_at. The query
-- uses the same collation, both so the index matches and so the order does not depend on the database's locale.
--
-- `hidden` is the last key column rather than the second: `hidden = false` is then checked inside the index (no heap
-- visit for a hidden row) while the same index still serves include_hidden=true in order. With `hidden` before
-- updated_at, an include_hidden page would have to merge two ranges, which the planner does with a sort.

-- An org's own list, with or without hidden rows.
CREATE INDEX workflows_list_org_idx
  ON workflows (org_id, updated_at DESC, workflow_id COLLATE "C" DESC, hidden);

-- An org's list filtered by project_slug.
CREATE INDEX workflows_list_org_project_idx
  ON workflows (org_id, project_slug, updated_at DESC, workflow_id COLLATE "C" DESC, hidden);

-- An admin's list spans every org; a project filter on it is checked in this index too.
CREATE INDEX workflows_list_all_idx
  ON workflows (updated_at DESC, workflow_id COLLATE "C" DESC, hidden, project_slug);
