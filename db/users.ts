import crypto from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { IdentityTables } from './qualified-tables';

export type Queryable = Pool | PoolClient;

export const ROLES = ['admin', 'user'] as const;
export type Role = (typeof ROLES)[number];

/** banReason of a user who signed up and waits for an admin. */
export const PENDING_APPROVAL = 'pending_approval';
/** banReason when an admin disables a user without giving a reason. */
export const DISABLED_BY_ADMIN = 'disabled_by_admin';

export interface User {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  banned: boolean;
  banReason: string | null;
  /** Monthly budget in US cents; null until approval. */
  budgetCents: number | null;
  createdAt: string;
}

interface UserRow {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  banned: boolean;
  ban_reason: string | null;
  budget_cents: number | null;
  created_at: Date;
}

export const USER_COLUMNS = 'id, email, name, role, banned, ban_reason, budget_cents, created_at';

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    banned: row.banned,
    banReason: row.ban_reason,
    budgetCents: row.budget_cents,
    createdAt: row.created_at.toISOString(),
  };
}

export function newUserId(): string {
  return `usr_${crypto.randomUUID()}`;
}

export interface NewUser {
  email: string;
  name?: string | null;
  role: Role;
  banned: boolean;
  banReason: string | null;
  budgetCents: number | null;
}

/** Inserts a user row with every invite-only field stated; the caller decides banned/pending. */
export async function insertUser(db: Queryable, t: IdentityTables, user: NewUser): Promise<User> {
  const { rows } = await db.query<UserRow>(
    `INSERT INTO ${t.users} (id, email, name, role, banned, ban_reason, budget_cents)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${USER_COLUMNS}`,
    [newUserId(), user.email, user.name ?? null, user.role, user.banned, user.banReason, user.budgetCents],
  );
  return toUser(rows[0]!);
}

export async function getUser(db: Queryable, t: IdentityTables, id: string): Promise<User | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM ${t.users} WHERE id = $1`, [id]);
  return rows[0] ? toUser(rows[0]) : undefined;
}

/** The users among `ids` that exist (any order); unknown ids are left out. */
export async function getUsersByIds(db: Queryable, t: IdentityTables, ids: readonly string[]): Promise<User[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM ${t.users} WHERE id = ANY($1::text[])`, [ids]);
  return rows.map(toUser);
}

export async function findUserByEmail(db: Queryable, t: IdentityTables, email: string): Promise<User | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM ${t.users} WHERE lower(email) = lower($1)`, [
    email,
  ]);
  return rows[0] ? toUser(rows[0]) : undefined;
}

export async function listUsers(db: Queryable, t: IdentityTables): Promise<User[]> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM ${t.users} ORDER BY created_at, id`);
  return rows.map(toUser);
}

/** The credential account's password hash for an email, with its user. */
export async function findCredential(
  db: Queryable,
  t: IdentityTables,
  email: string,
): Promise<{ user: User; passwordHash: string } | undefined> {
  const { rows } = await db.query<UserRow & { password: string }>(
    `SELECT ${USER_COLUMNS.split(', ')
      .map((c) => `u.${c}`)
      .join(', ')}, a.password
       FROM ${t.users} u JOIN ${t.accounts} a ON a.user_id = u.id AND a.provider_id = 'credential' AND a.account_id = u.id
      WHERE lower(u.email) = lower($1)`,
    [email],
  );
  return rows[0] ? { user: toUser(rows[0]), passwordHash: rows[0].password } : undefined;
}

/** The user a provider account (`sub` at the identity provider) belongs to. */
export async function findUserByAccount(
  db: Queryable,
  t: IdentityTables,
  providerId: string,
  accountId: string,
): Promise<User | undefined> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS.split(', ')
      .map((c) => `u.${c}`)
      .join(', ')}
       FROM ${t.users} u JOIN ${t.accounts} a ON a.user_id = u.id
      WHERE a.provider_id = $1 AND a.account_id = $2`,
    [providerId, accountId],
  );
  return rows[0] ? toUser(rows[0]) : undefined;
}

export async function insertAccount(
  db: Queryable,
  t: IdentityTables,
  account: { providerId: string; accountId: string; userId: string; password?: string },
): Promise<void> {
  await db.query(`INSERT INTO ${t.accounts} (provider_id, account_id, user_id, password) VALUES ($1, $2, $3, $4)`, [
    account.providerId,
    account.accountId,
    account.userId,
    account.password ?? null,
  ]);
}
