-- Users, credential and provider accounts, lucia sessions and the admin audit log of the identity service.
-- No defaults on role, banned, ban_reason or budget_cents: a direct insert bypasses the create hook and must
-- state them (spec, "direct database insert").

CREATE TABLE users (
  id            text PRIMARY KEY,
  email         text NOT NULL,
  name          text,
  role          text NOT NULL CHECK (role IN ('admin', 'user')),
  banned        boolean NOT NULL,
  ban_reason    text,
  -- Monthly budget in US cents; null until an admin approves the user (DEFAULT_BUDGET_USD then applies).
  budget_cents  integer CHECK (budget_cents >= 0),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_idx ON users (lower(email));

-- provider_id `credential` with account_id = user id holds the password hash; a provider account holds its `sub`.
CREATE TABLE accounts (
  provider_id  text NOT NULL,
  account_id   text NOT NULL,
  user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  password     text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider_id, account_id),
  CONSTRAINT accounts_credential_has_password CHECK (provider_id <> 'credential' OR password IS NOT NULL)
);
CREATE INDEX accounts_user_idx ON accounts (user_id);

-- lucia's session table: id, user_id, expires_at are the columns its PostgreSQL adapter reads and writes.
CREATE TABLE sessions (
  id          text PRIMARY KEY,
  user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE auth_audit_log (
  id          bigserial PRIMARY KEY,
  actor_id    text NOT NULL REFERENCES users (id),
  target_id   text NOT NULL REFERENCES users (id),
  action      text NOT NULL,
  -- The request as sent and the fields before and after: { requested, before, after }.
  changes     jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_audit_log_target_idx ON auth_audit_log (target_id, created_at DESC);
