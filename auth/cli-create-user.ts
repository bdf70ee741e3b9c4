import { parseArgs } from 'node:util';
import type { Pool } from 'pg';
import { z } from 'zod';
import { emptyAsUndefined, parseEnv } from '../config/parse-env';
import { createCredentialUser } from './credential-users';
import { migrateIdentity } from './migrate';
import { PASSWORD_MAX, PASSWORD_MIN } from './password';
import { identityTables } from '../db/qualified-tables';
import { ROLES } from '../db/users';

export const CREATE_USER_USAGE = `  keel auth create-user --email <email> --password-stdin [--role admin] [--approved]
      Create an email-password user in the identity database (DATABASE_URL, else the ingest database);
      the password is read from stdin and hashed with the sign-in routine. New users start pending
      approval unless --approved.`;

/** The slice of the identity service's environment that seeding needs. */
const createUserEnv = z.object({
  /** Unset → the same database as `keel token create` (POSTGRES_DSN, the running stack's, or its files). */
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  DATABASE_SSL: z.preprocess(emptyAsUndefined, z.stringbool().default(false)),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default('identity'),
  DEFAULT_BUDGET_USD: z.coerce.number().min(0).default(25),
});

const ArgsSchema = z.object({
  email: z.email('--email must be an email address'),
  'password-stdin': z.literal(true, {
    error: '--password-stdin is required: credentials never go on the command line',
  }),
  role: z.enum(ROLES).default('user'),
  approved: z.boolean().default(false),
});

const PasswordSchema = z
  .string()
  .min(PASSWORD_MIN, `the password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `the password must be at most ${PASSWORD_MAX} characters`);

export class CreateUserUsageError extends Error {
  override name = 'CreateUserUsageError';
}

/**
 * `keel auth create-user`: seeds a credential account without a browser. `openFallback` opens the ingest
 * database the way `keel token create` does, for when DATABASE_URL is unset.
 */
export async function createUserCommand(
  args: string[],
  io: {
    env: NodeJS.ProcessEnv;
    readStdin: () => Promise<string>;
    openDatabase: (override?: { dsn: string; ssl: boolean }) => Promise<{ pool: Pool; close(): Promise<void> }>;
  },
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      role: { type: 'string' },
      approved: { type: 'boolean' },
    },
  });
  const parsedArgs = ArgsSchema.safeParse(values);
  if (!parsedArgs.success) throw new CreateUserUsageError(parsedArgs.error.issues.map((i) => i.message).join('; '));
  const password = PasswordSchema.safeParse((await io.readStdin()).replace(/\r?\n$/, ''));
  if (!password.success) throw new CreateUserUsageError(password.error.issues.map((i) => i.message).join('; '));
  const env = parseEnv(createUserEnv, io.env, 'keel auth create-user');

  const database = await io.openDatabase(
    env.DATABASE_URL ? { dsn: env.DATABASE_URL, ssl: env.DATABASE_SSL } : undefined,
  );
  try {
    await migrateIdentity(database.pool, env.DATABASE_SCHEMA);
    const user = await createCredentialUser(database.pool, identityTables(env.DATABASE_SCHEMA), {
      email: parsedArgs.data.email,
      password: password.data,
      role: parsedArgs.data.role,
      approved: parsedArgs.data.approved,
      defaultBudgetCents: Math.round(env.DEFAULT_BUDGET_USD * 100),
    });
    console.log(
      `${user.id}  ${user.email}  role=${user.role}  ${user.banned ? 'pending approval' : `approved, budget $${((user.budgetCents ?? 0) / 100).toFixed(2)}`}`,
    );
    return 0;
  } catch (err) {
    if ((err as { code?: string }).code === '23505') {
      throw new Error(`a user with email ${parsedArgs.data.email} already exists`, { cause: err });
    }
    throw err;
  } finally {
    await database.close();
  }
}

/** All of stdin as text (the password, piped or typed and ended with Ctrl-D). */
export async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
