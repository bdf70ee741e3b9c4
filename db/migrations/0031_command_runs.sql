-- run_command (docs/toolbelt.md): one row per command a level's model ran, written before the command starts and
-- finished after it. A retried activity (its worker died, or its answer was lost) finds the row: a finished run's
-- recorded result is the answer, and a run that started and never finished is not started again, since a command may
-- have side effects that must not happen twice.
CREATE TABLE IF NOT EXISTS command_runs (
  run_key       text PRIMARY KEY,
  job_id        text NOT NULL REFERENCES job_runs (job_id),
  level_id      text NOT NULL,
  command       text NOT NULL,
  started_at    timestamptz NOT NULL DEFAULT now(),
  finished_at   timestamptz,
  exit_code     integer,
  killed        text CHECK (killed IN ('timeout', 'output_cap', 'aborted')),
  output_tail   text,
  output_bytes  bigint,
  duration_ms   integer,
  network       text
);
CREATE INDEX IF NOT EXISTS command_runs_job_idx ON command_runs (job_id);
