-- Completion webhooks (docs/webhooks.md). A submission's `webhook` is stored with its job, in the same transaction as
-- the job's row, so the first event the job stores already sees it. The secret signs deliveries and is never read back
-- by any route (it is shown once, in the submission's answer).
CREATE TABLE IF NOT EXISTS job_webhooks (
  job_id      text PRIMARY KEY REFERENCES job_runs (job_id),
  url         text NOT NULL,
  events      text[] NOT NULL,
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- One delivery per (job, event): its id is also the Temporal workflow id that makes it, so a retried append or a
-- worker killed mid-append never makes a second one.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  delivery_id   text PRIMARY KEY,
  job_id        text NOT NULL REFERENCES job_runs (job_id),
  sequence      integer NOT NULL,
  event_kind    text NOT NULL,
  url           text NOT NULL,
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  finished_at   timestamptz
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_job_idx ON webhook_deliveries (job_id, sequence);

-- Every attempt of a delivery: the answer's status (null when none came), how long it took, the error if any.
CREATE TABLE IF NOT EXISTS webhook_delivery_attempts (
  delivery_id   text NOT NULL REFERENCES webhook_deliveries (delivery_id),
  attempt       integer NOT NULL,
  attempted_at  timestamptz NOT NULL DEFAULT now(),
  status_code   integer,
  latency_ms    integer NOT NULL,
  ok            boolean NOT NULL,
  error         text,
  PRIMARY KEY (delivery_id, attempt)
);
