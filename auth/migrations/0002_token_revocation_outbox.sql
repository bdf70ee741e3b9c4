-- Disabling a user when the ingest API keeps a database of its own: the revocation of their API tokens is written
-- here in the disabling transaction and delivered to the ingest API's internal endpoint until it answers 200.

CREATE TABLE token_revocation_outbox (
  id               bigserial PRIMARY KEY,
  user_id          text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  -- When the next delivery may be tried; a replica that takes a row moves it ahead (a lease), a failure backs off.
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  attempts         integer NOT NULL DEFAULT 0,
  last_error       text,
  delivered_at     timestamptz
);
CREATE INDEX token_revocation_outbox_due_idx ON token_revocation_outbox (next_attempt_at) WHERE delivered_at IS NULL;
