-- Approval policies (docs/approval-policies.md) and reminders (docs/reminders.md).
--
-- A project's policy: ordered rules that decide an approval without a person, and the reminder schedule of its waits
-- for a person. One row per project; no row: every approval goes to a person and nothing reminds. The document is
-- zod-checked (pure/approval-policy.ts) before it is stored.
CREATE TABLE approval_policies (
  org_id        text NOT NULL,
  project_slug  text NOT NULL,
  policy        jsonb NOT NULL,
  updated_by    text NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, project_slug),
  CONSTRAINT approval_policies_project_fkey FOREIGN KEY (org_id, project_slug)
    REFERENCES projects (org_id, slug) ON DELETE CASCADE
);

-- What the policy saw of the request (action, reason, role, paths, cost, branch): the record of why a rule decided,
-- and what the dry run evaluates. Null on approvals recorded before policies.
ALTER TABLE approvals ADD COLUMN request jsonb;
-- The waits' milestones, as the workflow reached them (a timeout is decided_by = 'timeout').
ALTER TABLE approvals ADD COLUMN reminded_at timestamptz;
ALTER TABLE approvals ADD COLUMN escalated_at timestamptz;
ALTER TABLE approvals ADD COLUMN escalated_to text;
