-- API tokens may expire (null: never, for service tokens such as the console's and the stack's dev token), and are
-- listed and revoked per user (docs/tokens.md). last_used_at (from 0001) is now kept, at most once a minute a token.
ALTER TABLE api_tokens ADD COLUMN IF NOT EXISTS expires_at timestamptz;
CREATE INDEX IF NOT EXISTS api_tokens_user_idx ON api_tokens (user_id, created_at DESC);
