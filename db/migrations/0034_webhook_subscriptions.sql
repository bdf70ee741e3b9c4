-- Project-level webhook subscriptions (docs/webhooks.md, "Subscribing a project"): endpoints an admin configures once
-- for a project, delivered every subscribed event of every job of the project, through the same delivery workflow, log
-- and signature as a submission's own webhook.
--
-- `secret` signs every delivery. After a rotation the secret it replaced stays in `previous_secret` until
-- `previous_secret_expires_at`, and deliveries until then carry a second `v1=` signature made with it, so a receiver
-- that has not switched yet still verifies. No route reads either secret back (each is shown once).
CREATE TABLE webhook_subscriptions (
  subscription_id             text PRIMARY KEY,
  org_id                      text NOT NULL,
  project_slug                text NOT NULL,
  url                         text NOT NULL,
  events                      text[] NOT NULL,
  secret                      text NOT NULL,
  previous_secret             text,
  previous_secret_expires_at  timestamptz,
  created_by                  text NOT NULL,
  created_at                  timestamptz NOT NULL DEFAULT now(),
  rotated_at                  timestamptz,
  CONSTRAINT webhook_subscriptions_project_fkey FOREIGN KEY (org_id, project_slug)
    REFERENCES projects (org_id, slug) ON DELETE CASCADE
);
CREATE INDEX webhook_subscriptions_project_idx ON webhook_subscriptions (org_id, project_slug);

-- Which endpoint a delivery went to: null for the job's own webhook (job_webhooks), else a project subscription. Not a
-- foreign key: a deleted subscription's deliveries stay in the job's log.
ALTER TABLE webhook_deliveries ADD COLUMN subscription_id text;
