import type { Pool } from 'pg';
import { withTransaction } from '../db/transaction';
import type { ProviderIdentity } from './oidc';
import type { IdentityTables } from '../db/qualified-tables';
import {
  PENDING_APPROVAL,
  findUserByAccount,
  findUserByEmail,
  insertAccount,
  insertUser,
  type User,
} from '../db/users';

/**
 * The user behind a provider identity, created on first sign-in by the invite-only hook: banned with
 * `pending_approval`, unless the email is in ADMIN_EMAILS (then admin and not banned). An existing user
 * with the same email is linked only when the provider says the email is verified.
 */
export async function userForProviderIdentity(
  pool: Pool,
  t: IdentityTables,
  input: { providerId: string; identity: ProviderIdentity & { email: string }; adminEmails: readonly string[] },
): Promise<User> {
  const { providerId, identity } = input;
  const known = await findUserByAccount(pool, t, providerId, identity.sub);
  if (known) return known;
  try {
    return await withTransaction(pool, async (client) => {
      const byEmail = identity.emailVerified ? await findUserByEmail(client, t, identity.email) : undefined;
      const admin = input.adminEmails.includes(identity.email);
      const user =
        byEmail ??
        (await insertUser(client, t, {
          email: identity.email,
          name: identity.name ?? null,
          role: admin ? 'admin' : 'user',
          banned: !admin,
          banReason: admin ? null : PENDING_APPROVAL,
          budgetCents: null,
        }));
      await insertAccount(client, t, { providerId, accountId: identity.sub, userId: user.id });
      return user;
    });
  } catch (err) {
    // Two first sign-ins at once: the loser's insert hits a unique index; the winner's row is the answer.
    if ((err as { code?: string }).code === '23505') {
      const winner = await findUserByAccount(pool, t, providerId, identity.sub);
      if (winner) return winner;
    }
    throw err;
  }
}
