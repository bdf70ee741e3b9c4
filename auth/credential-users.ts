import type { Pool } from 'pg';
import { withTransaction } from '../db/transaction';
import { hashPassword } from './password';
import type { IdentityTables } from '../db/qualified-tables';
import { PENDING_APPROVAL, insertAccount, insertUser, type Role, type User } from '../db/users';

/**
 * Mints an email-password user the way an admin does: the user row plus a `credential` account whose
 * accountId is the user id and whose password is hashed by the sign-in routine. Starts banned as
 * `pending_approval` like any new user, unless `approved` (then with the default budget).
 */
export async function createCredentialUser(
  pool: Pool,
  t: IdentityTables,
  input: {
    email: string;
    password: string;
    role: Role;
    approved: boolean;
    defaultBudgetCents: number;
    name?: string;
    /** Set when an admin creates the user over HTTP: the creation is an admin update, so it is audited. */
    audit?: { actorId: string; action: string };
  },
): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  return withTransaction(pool, async (client) => {
    const user = await insertUser(client, t, {
      email: input.email.toLowerCase(),
      name: input.name ?? null,
      role: input.role,
      banned: !input.approved,
      banReason: input.approved ? null : PENDING_APPROVAL,
      budgetCents: input.approved ? input.defaultBudgetCents : null,
    });
    await insertAccount(client, t, {
      providerId: 'credential',
      accountId: user.id,
      userId: user.id,
      password: passwordHash,
    });
    if (input.audit) {
      await client.query(`INSERT INTO ${t.audit} (actor_id, target_id, action, changes) VALUES ($1, $2, $3, $4)`, [
        input.audit.actorId,
        user.id,
        input.audit.action,
        JSON.stringify({ requested: { email: user.email, role: user.role }, before: null, after: user }),
      ]);
    }
    return user;
  });
}
