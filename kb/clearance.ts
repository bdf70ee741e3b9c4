import type { Pool } from 'pg';
import { defaultClearance, SensitivitySchema, type Sensitivity } from './sensitivity';

/** The highest hub sensitivity a token may read: its own setting, else the default for its role. */
export async function clearanceOf(pool: Pool, token: { token_id: string; is_admin: boolean }): Promise<Sensitivity> {
  const { rows } = await pool.query<{ kb_clearance: string | null }>(
    'SELECT kb_clearance FROM api_tokens WHERE token_id = $1',
    [token.token_id],
  );
  const stored = rows[0]?.kb_clearance;
  return stored ? SensitivitySchema.parse(stored) : defaultClearance(token.is_admin);
}

/** Sets a token's hub clearance (`keel token create --kb-clearance`). */
export async function setClearance(pool: Pool, tokenId: string, clearance: Sensitivity): Promise<void> {
  await pool.query('UPDATE api_tokens SET kb_clearance = $2 WHERE token_id = $1', [tokenId, clearance]);
}
