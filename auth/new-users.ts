import type { Pool } from 'pg';
import { Conflict } from '../refusals/refusal';
import { withTransaction } from '../db/transaction';
import type { IdentityTables } from '../db/qualified-tables';
import { PENDING_APPROVAL, insertUser, type Role, type User } from '../db/users';
import { createCredentialUser } from './credential-users';

export interface AdminNewUser {
  email: string;
  role: Role;
  name?: string;
  /** With a password: an email-password account. Without: an invitation to sign in with the identity provider. */
  password?: string;
}

/**
 * A user an admin adds, by the invite-only rule every new user follows: banned with `pending_approval` until an admin
 * approves it, whatever its role, with an audit row naming the admin. Without a password no credential account is
 * made: the invited person signs in with the identity provider, whose first sign-in links to this user when the
 * provider says the email is verified (provider-users.ts), and lands on the pending page until approved. An email
 * already taken (case-insensitively) is 409 `email_taken`.
 */
export async function addUserAsAdmin(
  pool: Pool,
  t: IdentityTables,
  input: AdminNewUser & { actorId: string; defaultBudgetCents: number },
): Promise<User> {
  const email = input.email.toLowerCase();
  const create =
    input.password !== undefined
      ? createCredentialUser(pool, t, {
          email,
          password: input.password,
          role: input.role,
          name: input.name,
          approved: false,
          defaultBudgetCents: input.defaultBudgetCents,
          audit: { actorId: input.actorId, action: 'create_user' },
        })
      : withTransaction(pool, async (client) => {
          const user = await insertUser(client, t, {
            email,
            name: input.name ?? null,
            role: input.role,
            banned: true,
            banReason: PENDING_APPROVAL,
            budgetCents: null,
          });
          await client.query(`INSERT INTO ${t.audit} (actor_id, target_id, action, changes) VALUES ($1, $2, $3, $4)`, [
            input.actorId,
            user.id,
            'invite_user',
            JSON.stringify({ requested: { email, role: input.role }, before: null, after: user }),
          ]);
          return user;
        });
  return create.catch((err: unknown) => {
    if ((err as { code?: string }).code === '23505') {
      throw new Conflict('email_taken', `a user with email ${email} already exists`);
    }
    throw err;
  });
}
