import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import Redis from 'ioredis';
import type { Pool } from 'pg';
import { buildAuthApp } from '../../auth/app';
import { authEnv, type AuthEnv } from '../../auth/config';
import { createCredentialUser } from '../../auth/credential-users';
import { migrateIdentity } from '../../auth/migrate';
import { identityTables, type IdentityTables } from '../../db/qualified-tables';
import type { Role, User } from '../../db/users';
import { migrate } from '../../db/migrate';
import { createTestPool, testPostgresDsn, testRedisUrl, uniqueSuffix } from './env';

export const AUTH_URL = 'https://auth.example.test';
export const APP_ORIGIN = 'https://app.example.test';
export const PASSWORD = 'correct horse battery staple';

/** A clock the test moves by hand, so the 5-minute cookie cache expires without waiting. */
export class ManualClock {
  constructor(public ms = Date.UTC(2026, 5, 15, 12, 0, 0)) {}
  readonly now = () => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * The identity service over a real PostgreSQL (an identity schema and an ingest schema of this test's own,
 * both migrated) and real Redis (a key prefix of its own), driven through `inject`.
 */
export interface IdentityUnderTest {
  app: FastifyInstance;
  pool: Pool;
  env: AuthEnv;
  tables: IdentityTables;
  clock: ManualClock;
  /** The ingest schema: job_runs (the spend ledger) and workflows live here. */
  ingestSchema: string;
  createUser(input: { email: string; role?: Role; approved?: boolean }): Promise<User>;
  /** Signs in with the test password and returns the Cookie header that carries the session. */
  signIn(email: string, remoteAddress?: string): Promise<string>;
  close(): Promise<void>;
}

export async function startIdentity(env: Record<string, string> = {}): Promise<IdentityUnderTest> {
  const suffix = uniqueSuffix();
  const schema = `id_${suffix}`;
  const ingestSchema = `t_${suffix}`;
  const pool = createTestPool(schema);
  const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 2 });
  try {
    await migrate(pool, ingestSchema);
    await migrateIdentity(pool, schema);
  } catch (err) {
    redis.disconnect();
    await pool.end();
    throw err;
  }
  const parsed = authEnv.parse({
    DATABASE_URL: testPostgresDsn,
    DATABASE_SCHEMA: schema,
    INGEST_SCHEMA: ingestSchema,
    AUTHLIB_SECRET: 'a test secret that is at least thirty-two characters',
    AUTHLIB_URL: AUTH_URL,
    AUTHLIB_COOKIE_DOMAIN: 'example.test',
    TRUSTED_ORIGINS: APP_ORIGIN,
    IDP_CLIENT_ID: 'keel',
    IDP_CLIENT_SECRET: 'keel-secret',
    IDP_ISSUER_URL: 'http://127.0.0.1:9/unused',
    ADMIN_EMAILS: '',
    KEEL_INSTANCE_ID: `test-${suffix}`,
    ...env,
  });
  const clock = new ManualClock();
  const app = await buildAuthApp({ pool, env: parsed, redis, now: clock.now }, { logger: false });
  const tables = identityTables(schema);

  return {
    app,
    pool,
    env: parsed,
    tables,
    clock,
    ingestSchema,
    createUser: (input) =>
      createCredentialUser(pool, tables, {
        email: input.email,
        password: PASSWORD,
        role: input.role ?? 'user',
        approved: input.approved ?? true,
        defaultBudgetCents: Math.round(parsed.DEFAULT_BUDGET_USD * 100),
      }),
    async signIn(email, remoteAddress = '10.0.0.1') {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email, password: PASSWORD },
        remoteAddress,
      });
      if (res.statusCode !== 200) throw new Error(`sign-in of ${email} answered ${res.statusCode}: ${res.body}`);
      return cookieHeader(res);
    },
    async close() {
      await app.close();
      redis.disconnect();
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.query(`DROP SCHEMA IF EXISTS "${ingestSchema}" CASCADE`);
      await pool.end();
    },
  };
}

/** The Cookie header a browser would send back after `res`, merged over `previous`. */
export function cookieHeader(res: LightMyRequestResponse, previous = ''): string {
  const jar = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const),
  );
  for (const cookie of res.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
    if (cookie.value === '' || cookie.maxAge === 0) jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/**
 * Records a finished job's cost in the ingest schema's job_runs, the ledger month-to-date spend is read from: in org
 * `org` unless another is named, in a project (which must exist) when one is named.
 */
export async function recordJobCost(
  pool: Pool,
  ingestSchema: string,
  input: {
    userId: string;
    costUsd: number;
    createdAt: Date;
    jobId?: string;
    workflowId?: string;
    orgId?: string;
    projectSlug?: string;
  },
): Promise<{ jobId: string; workflowId: string }> {
  const suffix = uniqueSuffix();
  const workflowId = input.workflowId ?? `wf-${Math.floor(Math.random() * 1e9)}`;
  const jobId = input.jobId ?? `job-${suffix}`;
  const orgId = input.orgId ?? 'org';
  const s = `"${ingestSchema}"`;
  await pool.query(
    `INSERT INTO ${s}.workflows (workflow_id, created_by, org_id, project_slug) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [workflowId, input.userId, orgId, input.projectSlug ?? null],
  );
  await pool.query(
    `INSERT INTO ${s}.prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ($1, $2, 'p', $3)`,
    [`pt-${suffix}`, workflowId, input.userId],
  );
  await pool.query(
    `INSERT INTO ${s}.job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue, cost_usd, created_at)
     VALUES ($1, $2, $3, 'completed', $4, $5, 'q', $6, $7)`,
    [jobId, workflowId, `pt-${suffix}`, input.userId, orgId, input.costUsd, input.createdAt],
  );
  return { jobId, workflowId };
}

/** The `{ error: { code, message } }` body of a refused request. */
export function errorOf(res: LightMyRequestResponse): { code: string; message: string } {
  return res.json<{ error: { code: string; message: string } }>().error;
}

/** A user as the admin listings show it. */
export type Listed = Record<string, unknown> & { id: string; email: string };
