import type { Pool, PoolClient } from 'pg';
import { Forbidden, NotFound } from '../refusals/refusal';
import { withTransaction } from '../db/transaction';
import type { IdentityTables, IngestTables } from '../db/qualified-tables';
import type { AuthContext } from './context';
import { DISABLED_BY_ADMIN, USER_COLUMNS, toUser, type Role, type User } from '../db/users';
import { recordRevocation } from './token-revocations';

export interface AdminChange {
  disabled?: boolean;
  role?: Role;
  budgetCents?: number;
  /** Recorded as banReason when disabling; `disabled_by_admin` otherwise. */
  banReason?: string;
}

export type UserStatus = 'active' | 'pending' | 'disabled';

export function userStatus(user: Pick<User, 'banned' | 'banReason'>): UserStatus {
  if (!user.banned) return 'active';
  return user.banReason === 'pending_approval' ? 'pending' : 'disabled';
}

/**
 * Every admin update to a user goes through here, in one transaction: the row is locked, an admin's change
 * that would disable or demote itself is refused (nothing written), enabling a user without a budget gives
 * it the default, disabling deletes all of the target's sessions, and one audit row is written every time.
 */
export async function applyAdminChange(
  pool: Pool,
  t: IdentityTables,
  input: {
    actorId: string;
    targetId: string;
    action: string;
    change: AdminChange;
    defaultBudgetCents: number;
    /** The ingest tables, when this database holds them: disabling revokes the user's API tokens too. */
    ingest?: IngestTables;
    /**
     * The ingest API keeps a database of its own (INGEST_URL): disabling writes the revocation to the outbox, which
     * auth/token-revocations.ts delivers to it.
     */
    revocationOutbox?: boolean;
  },
): Promise<User> {
  const { actorId, targetId, change } = input;
  if (actorId === targetId && (change.disabled === true || (change.role !== undefined && change.role !== 'admin'))) {
    throw new Forbidden('self_change_blocked', 'an admin cannot disable or demote itself');
  }
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<Parameters<typeof toUser>[0]>(
      `SELECT ${USER_COLUMNS} FROM ${t.users} WHERE id = $1 FOR UPDATE`,
      [targetId],
    );
    if (!rows[0]) throw new NotFound(`user ${targetId}`);
    const before = toUser(rows[0]);

    const banned = change.disabled ?? before.banned;
    let banReason = before.banReason;
    if (change.disabled === true) banReason = change.banReason ?? DISABLED_BY_ADMIN;
    if (change.disabled === false) banReason = null;
    const role = change.role ?? before.role;
    // Approval is the moment DEFAULT_BUDGET_USD applies; an explicit budget in the same change wins.
    const budgetCents =
      change.budgetCents ??
      (change.disabled === false && before.budgetCents === null ? input.defaultBudgetCents : before.budgetCents);

    const updated = await client.query<Parameters<typeof toUser>[0]>(
      `UPDATE ${t.users} SET banned = $2, ban_reason = $3, role = $4, budget_cents = $5, updated_at = now()
        WHERE id = $1 RETURNING ${USER_COLUMNS}`,
      [targetId, banned, banReason, role, budgetCents],
    );
    const after = toUser(updated.rows[0]!);
    if (change.disabled === true) {
      await client.query(`DELETE FROM ${t.sessions} WHERE user_id = $1`, [targetId]);
      await revokeApiTokens(client, input.ingest, targetId);
      if (input.revocationOutbox) await recordRevocation(client, t, targetId);
    }
    await client.query(`INSERT INTO ${t.audit} (actor_id, target_id, action, changes) VALUES ($1, $2, $3, $4)`, [
      actorId,
      targetId,
      input.action,
      JSON.stringify({ requested: change, before: auditFields(before), after: auditFields(after) }),
    ]);
    return after;
  });
}

/**
 * A disabled user's API tokens stop at once, in the disabling transaction, where the ingest tables share this
 * database; with separate databases the outbox row above carries the revocation to the ingest API (docs/tokens.md).
 */
async function revokeApiTokens(client: PoolClient, ingest: IngestTables | undefined, userId: string): Promise<void> {
  if (!ingest) return;
  const { rows } = await client.query<{ present: string | null }>('SELECT to_regclass($1)::text AS present', [
    ingest.apiTokens,
  ]);
  if (!rows[0]?.present) return;
  await client.query(`UPDATE ${ingest.apiTokens} SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [
    userId,
  ]);
}

/**
 * An admin's change through the identity service's routes: the change, plus, when it disables, the user's cached
 * sessions listed as revoked (before the write, so no cache cookie outlives the ban) and their API tokens revoked.
 */
export async function changeUser(
  ctx: Pick<AuthContext, 'pool' | 'tables' | 'ingestTables' | 'budgets' | 'revokedUsers' | 'revocations'>,
  input: { actorId: string; targetId: string; action: string; change: AdminChange },
): Promise<User> {
  if (input.change.disabled === true && input.actorId !== input.targetId) await ctx.revokedUsers.revoke(input.targetId);
  const user = await applyAdminChange(ctx.pool, ctx.tables, {
    ...input,
    defaultBudgetCents: ctx.budgets.defaultBudgetCents,
    ingest: ctx.ingestTables,
    revocationOutbox: ctx.revocations !== undefined,
  });
  // Delivered now rather than on the next poll; the admin's answer does not wait for the ingest API.
  if (input.change.disabled === true) void ctx.revocations?.kick();
  return user;
}

function auditFields(user: User) {
  return { role: user.role, banned: user.banned, banReason: user.banReason, budgetCents: user.budgetCents };
}
