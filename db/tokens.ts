import crypto from 'node:crypto';
import type { Pool } from 'pg';

export interface TokenOwner {
  token_id: string;
  user_id: string;
  org_id: string;
  is_admin: boolean;
  /** The token may name a user it acts for (the console's); absent means false. */
  acts_for_users?: boolean;
}

const TOKEN_PREFIX = 'keel_';

/** SHA-256 suffices for 256-bit random tokens: there is nothing to brute-force, unlike passwords. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** A new 256-bit random API token, in clear. */
export function generateToken(): string {
  return `${TOKEN_PREFIX}${crypto.randomBytes(32).toString('base64url')}`;
}

/**
 * Creates an API token and returns it in clear exactly once; only its hash is stored.
 * With `token` given (the dev token from KEEL_DEV_TOKEN), that value is registered instead.
 */
export async function createToken(
  pool: Pool,
  owner: {
    userId: string;
    orgId: string;
    isAdmin: boolean;
    label?: string;
    token?: string;
    actsForUsers?: boolean;
    /** After this instant the token is refused; absent or null: it never expires. */
    expiresAt?: Date | null;
  },
): Promise<{ token: string; tokenId: string }> {
  const token = owner.token ?? generateToken();
  const tokenId = `tok_${crypto.randomBytes(8).toString('hex')}`;
  await pool.query(
    `INSERT INTO api_tokens (token_id, token_hash, user_id, org_id, is_admin, label, acts_for_users, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (token_hash) DO UPDATE
       SET user_id = EXCLUDED.user_id, org_id = EXCLUDED.org_id, is_admin = EXCLUDED.is_admin,
           acts_for_users = EXCLUDED.acts_for_users, expires_at = EXCLUDED.expires_at, revoked_at = NULL`,
    [
      tokenId,
      hashToken(token),
      owner.userId,
      owner.orgId,
      owner.isAdmin,
      owner.label ?? null,
      owner.actsForUsers ?? false,
      owner.expiresAt ?? null,
    ],
  );
  return { token, tokenId };
}

/**
 * The owner of a live token (not revoked, not expired), or undefined. The same round trip records its use: at most
 * once a minute a token, so a busy client does not turn every request into a row write.
 */
export async function findTokenOwner(pool: Pool, token: string): Promise<TokenOwner | undefined> {
  const { rows } = await pool.query<TokenOwner>(
    `WITH owner AS (
       SELECT token_id, user_id, org_id, is_admin, acts_for_users, last_used_at
         FROM api_tokens
        WHERE token_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
     ), touched AS (
       UPDATE api_tokens t SET last_used_at = now()
         FROM owner
        WHERE t.token_id = owner.token_id
          AND (owner.last_used_at IS NULL OR owner.last_used_at < now() - interval '1 minute')
     )
     SELECT token_id, user_id, org_id, is_admin, acts_for_users FROM owner`,
    [hashToken(token)],
  );
  return rows[0];
}

/** A token as listed: never its secret or hash. */
export interface TokenListing {
  token_id: string;
  user_id: string;
  org_id: string;
  is_admin: boolean;
  acts_for_users: boolean;
  label: string | null;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const LISTING_COLUMNS =
  'token_id, user_id, org_id, is_admin, acts_for_users, label, created_at, expires_at, last_used_at, revoked_at';

/** Tokens, newest first, narrowed to a user and/or an org when given. */
export async function listTokens(
  pool: Pool,
  filter: { userId?: string; orgId?: string; limit?: number },
): Promise<TokenListing[]> {
  const { rows } = await pool.query<TokenListing>(
    `SELECT ${LISTING_COLUMNS} FROM api_tokens
      WHERE ($1::text IS NULL OR user_id = $1) AND ($2::text IS NULL OR org_id = $2)
      ORDER BY created_at DESC, token_id LIMIT $3`,
    [filter.userId ?? null, filter.orgId ?? null, filter.limit ?? 1000],
  );
  return rows;
}

export async function getTokenListing(pool: Pool, tokenId: string): Promise<TokenListing | undefined> {
  const { rows } = await pool.query<TokenListing>(`SELECT ${LISTING_COLUMNS} FROM api_tokens WHERE token_id = $1`, [
    tokenId,
  ]);
  return rows[0];
}

/** Revokes a token at once; revoking a revoked token keeps its first revocation time. */
export async function revokeToken(pool: Pool, tokenId: string): Promise<TokenListing | undefined> {
  const { rows } = await pool.query<TokenListing>(
    `UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE token_id = $1 RETURNING ${LISTING_COLUMNS}`,
    [tokenId],
  );
  return rows[0];
}

/**
 * Revokes every live token of a user (the identity service disabled them); returns how many it revoked. Idempotent:
 * a repeated call revokes nothing more and keeps the first revocation times.
 */
export async function revokeUserTokens(pool: Pool, userId: string): Promise<number> {
  const { rowCount } = await pool.query(
    'UPDATE api_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL',
    [userId],
  );
  return rowCount ?? 0;
}
