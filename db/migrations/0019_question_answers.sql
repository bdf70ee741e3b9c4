-- Who answered a job's ask_user question, and what (redacted, as the job took it): the job's events carry the answer
-- as a tool_result preview but not who gave it. Written by POST /v1/jobs/:id/resume once the job took the answer.
CREATE TABLE IF NOT EXISTS question_answers (
  job_id       text NOT NULL REFERENCES job_runs (job_id),
  call_id      text NOT NULL,
  answer       text NOT NULL,
  answered_by  text NOT NULL,
  answered_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, call_id)
);

-- GET /v1/questions lists ask_user events newest first across jobs; without this it would scan every event.
CREATE INDEX IF NOT EXISTS job_events_ask_user_idx ON job_events (occurred_at DESC, job_id COLLATE "C" DESC, sequence DESC)
  WHERE kind = 'ask_user';
