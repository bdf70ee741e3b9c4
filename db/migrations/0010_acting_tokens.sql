-- A token that may act for users: the console (the identity spec's frontend backend) calls the ingest API with one
-- such token and names the signed-in user in a header (docs/console.md, "Acting for a user"). The API honours the
-- header only from a token flagged here; an ordinary token sending it is refused. Existing tokens are not flagged.
ALTER TABLE api_tokens ADD COLUMN IF NOT EXISTS acts_for_users boolean NOT NULL DEFAULT false;

-- A member's own list through the console: the org's list narrowed to the workflows they created, in list order, so
-- a page is still one index range scan from the cursor (as workflows_list_org_idx for the org's list).
CREATE INDEX IF NOT EXISTS workflows_list_creator_idx
  ON workflows (org_id, created_by, updated_at DESC, workflow_id COLLATE "C" DESC, hidden);
