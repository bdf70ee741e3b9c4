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
  owner: { userId: string; orgId: string; isAdmin: boolean; label?: string; token?: string; actsForUsers?: boolean },
): Promise<{ token: string; tokenId: string }> {
  const token = owner.token ?? generateToken();
  const tokenId = `tok_${crypto.randomBytes(8).toString('hex')}`;
  await pool.query(
    `INSERT INTO api_tokens (token_id, token_hash, user_id, org_id, is_admin, label, acts_for_users)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (token_hash) DO UPDATE
       SET user_id = EXCLUDED.user_id, org_id = EXCLUDED.org_id, is_admin = EXCLUDED.is_admin,
           acts_for_users = EXCLUDED.acts_for_users, revoked_at = NULL`,
    [
      tokenId,
      hashToken(token),
      owner.userId,
      owner.orgId,
      owner.isAdmin,
      owner.label ?? null,
      owner.actsForUsers ?? false,
    ],
  );
  return { token, tokenId };
}

/** The owner of a live (not revoked) token, or undefined. */
export async function findTokenOwner(pool: Pool, token: string): Promise<TokenOwner | undefined> {
  const { rows } = await pool.query<TokenOwner>(
    `SELECT token_id, user_id, org_id, is_admin, acts_for_users
       FROM api_tokens WHERE token_hash = $1 AND revoked_at IS NULL`,
    [hashToken(token)],
  );
  return rows[0];
}
