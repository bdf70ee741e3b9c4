-- The knowledge hub's tenancy: each document belongs to one org (org_id), or to the shared space (NULL) that every
-- org reads and only admin tokens write. Documents indexed before this migration were readable by every org, so they
-- start in the shared space; a connector or a write names the org of what it adds (docs/knowledge-hub.md, Tenancy).

ALTER TABLE kb_documents ADD COLUMN org_id text;
CREATE INDEX kb_documents_org_idx ON kb_documents (org_id, path);
