-- Approval policy history (docs/approval-policies.md, "History"), and who an escalation named.
--
-- Every change of a project's approval policy, kept: who set or removed it, when, and the document (null: removed).
-- The YAML text an admin sent is kept beside the document, comments and order as they wrote them, so the console shows
-- the policy as it was written; a policy sent as JSON has none (the API writes the document out as YAML instead).
ALTER TABLE approval_policies ADD COLUMN policy_yaml text;

CREATE TABLE approval_policy_history (
  change_id     bigserial PRIMARY KEY,
  org_id        text NOT NULL,
  project_slug  text NOT NULL,
  policy        jsonb,
  policy_yaml   text,
  changed_by    text NOT NULL,
  changed_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT approval_policy_history_project_fkey FOREIGN KEY (org_id, project_slug)
    REFERENCES projects (org_id, slug) ON DELETE CASCADE
);
CREATE INDEX approval_policy_history_project ON approval_policy_history (org_id, project_slug, change_id DESC);

-- Who an escalation named (docs/reminders.md): the people behind escalated_to (`project_owners`: the admins; `role:x`:
-- the users of identity role x), as the identity service listed them then. Null before this, or when unresolved.
ALTER TABLE approvals ADD COLUMN escalated_people jsonb;
