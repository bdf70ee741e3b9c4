import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Pool } from 'pg';
import { createCredentialUser } from '../auth/credential-users';
import type { IdentityTables } from '../db/qualified-tables';

export function firstAdminPath(dataDir: string): string {
  return path.join(dataDir, 'console-admin');
}

export type FirstAdmin =
  /** Created by this start: the password is shown once here and kept in DATA_DIR/console-admin (mode 0600). */
  | { kind: 'created'; email: string; password: string; file: string }
  /** Created by an earlier start; its password is still in the file. */
  | { kind: 'kept'; email: string; file: string }
  /** Some admin exists that this stack did not create (`keel auth create-user`, ADMIN_EMAILS): nothing to do. */
  | { kind: 'none' };

/**
 * So that a person can sign in to the console the first time `npm start` runs: when the identity service has no
 * admin at all, an approved admin with a generated password is created (the password exists in clear only in
 * DATA_DIR/console-admin, like the dev token). Never touches a database that already has an admin.
 */
export async function ensureFirstAdmin(options: {
  pool: Pool;
  tables: IdentityTables;
  dataDir: string;
  email: string;
  defaultBudgetCents: number;
}): Promise<FirstAdmin> {
  const file = firstAdminPath(options.dataDir);
  const { rows } = await options.pool.query<{ email: string }>(
    `SELECT email FROM ${options.tables.users} WHERE role = 'admin' ORDER BY created_at LIMIT 50`,
  );
  if (rows.length > 0) {
    const saved = readSaved(file);
    return saved && rows.some((row) => row.email === saved.email)
      ? { kind: 'kept', email: saved.email, file }
      : { kind: 'none' };
  }
  const password = crypto.randomBytes(18).toString('base64url');
  const user = await createCredentialUser(options.pool, options.tables, {
    email: options.email,
    password,
    role: 'admin',
    approved: true,
    defaultBudgetCents: options.defaultBudgetCents,
    name: 'Keel admin',
  });
  fs.writeFileSync(file, `${user.email}\n${password}\n`, { mode: 0o600 });
  return { kind: 'created', email: user.email, password, file };
}

function readSaved(file: string): { email: string } | undefined {
  try {
    const [email] = fs.readFileSync(file, 'utf8').split('\n');
    return email ? { email } : undefined;
  } catch {
    return undefined;
  }
}
