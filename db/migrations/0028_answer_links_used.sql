-- Answer links (docs/answer-links.md): each link that was used, once. The row is written before the answer is handed
-- to the job (a claim), so the same link submitted twice at once is taken once; a claim whose answer the job did not
-- take is deleted again. Who answered stays where every channel records it (question_answers.answered_by,
-- approvals.decided_by, human_tasks.completed_by, as `link:<link_id>`); this row says which link, for what, and when.
CREATE TABLE IF NOT EXISTS answer_links_used (
  link_id     text PRIMARY KEY,
  job_id      text NOT NULL REFERENCES job_runs (job_id),
  kind        text NOT NULL CHECK (kind IN ('question', 'approval', 'task')),
  target_id   text NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS answer_links_used_job_idx ON answer_links_used (job_id);
