-- Tasks a job assigns to a person (`human_task_assigned`): "add the Vercel token", "review the design". The job
-- waits on an open task like on an approval; completing it (POST /v1/human-tasks/:id/complete) wakes the workflow.
CREATE TABLE human_tasks (
  task_id              text PRIMARY KEY,
  job_id               text NOT NULL REFERENCES job_runs (job_id),
  workflow_id          text NOT NULL REFERENCES workflows (workflow_id),
  -- The Temporal workflow the completion signal is sent to.
  waiting_workflow_id  text NOT NULL,
  role                 text NOT NULL,
  title                text NOT NULL,
  detail               text NOT NULL DEFAULT '',
  assignee             text NOT NULL,
  due_at               timestamptz,
  state                text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'done')),
  completed_by         text,
  completed_at         timestamptz,
  note                 text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  -- A done task always says who completed it and when; an open one never does.
  CONSTRAINT human_tasks_completion_recorded CHECK ((state = 'open') = (completed_by IS NULL AND completed_at IS NULL))
);
CREATE INDEX human_tasks_assignee_idx ON human_tasks (assignee, state, created_at DESC);
CREATE INDEX human_tasks_job_idx ON human_tasks (job_id, created_at DESC);
