import os from 'node:os';
import { Client, Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { Client as PgClient, type Pool } from 'pg';
import Redis from 'ioredis';
import { buildApp } from '../../api/app';
import { buildAuthApp } from '../../auth/app';
import { authEnv } from '../../auth/config';
import { createCredentialUser } from '../../auth/credential-users';
import { migrateIdentity } from '../../auth/migrate';
import { createIdAllocator } from '../../db/ids';
import { createPool } from '../../db/pool';
import { identityTables, ingestTables } from '../../db/qualified-tables';
import { createToken } from '../../db/tokens';
import { identityServiceBudget } from '../../jobs/budget-sources';
import type { QueueStore } from '../../queue/queue-store';
import { testPostgresDsn, testRedisUrl, uniqueSuffix } from './env';
import { createTestDatabase, createTestQueue, type TestDatabase } from './harness';
import { errorOf, recordJobCost } from './identity-harness';

/**
 * Budgets when the identity service and the ingest service keep separate databases: the identity tables live in a
 * database of their own that the ingest API cannot reach, and admission asks the identity service's internal
 * endpoint (shared secret) for the user's role, budget and status, summing spend from its own ledger. The refusals
 * come before Temporal is reached, so the Temporal client points at a closed port (as in the budget-gate test).
 */
const INTERNAL_TOKEN = 'internal-token-of-at-least-thirty-two-characters';
const identityDbName = `keel_identity_${uniqueSuffix()}`;
const identityDsn = testPostgresDsn.replace(/\/[^/]*$/, `/${identityDbName}`);
let ingest: TestDatabase;
let identityPool: Pool;
let redis: Redis;
let queue: QueueStore;
let connection: Connection;
let identity: FastifyInstance;
let identityUrl: string;
let api: FastifyInstance;
const tokens: Record<string, string> = {};
const users: Record<string, string> = {};

async function adminQuery(sql: string): Promise<void> {
  const client = new PgClient({ connectionString: testPostgresDsn });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function apiOver(url: string, token: string): Promise<FastifyInstance> {
  return buildApp(
    {
      pool: ingest.pool,
      queue,
      temporal: new Client({ connection }),
      ids: createIdAllocator({ pool: ingest.pool, queue }),
      taskQueue: `keel-test-${uniqueSuffix()}`,
      models: { list: async () => [] },
      rateLimits: { userPerMinute: 1000, orgPerMinute: 1000 },
      workspaceRoot: os.tmpdir(),
      heartbeatMs: 15_000,
      streamPollMs: 1_000,
      budget: identityServiceBudget({
        identityUrl: url,
        internalToken: token,
        pool: ingest.pool,
        ledger: ingestTables(ingest.schema),
      }),
    },
    { logger: false },
  );
}

beforeAll(async () => {
  await adminQuery(`CREATE DATABASE "${identityDbName}"`);
  ingest = await createTestDatabase();
  queue = await createTestQueue();
  redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 2 });
  const schema = 'identity';
  identityPool = createPool({ dsn: identityDsn, max: 3, ssl: false, schema });
  await migrateIdentity(identityPool, schema);
  const env = authEnv.parse({
    DATABASE_URL: identityDsn,
    DATABASE_SCHEMA: schema,
    // Deliberately a schema that exists nowhere in the identity database: nothing here may read the ledger.
    INGEST_SCHEMA: 'not_reachable_from_identity',
    AUTHLIB_SECRET: 'a test secret that is at least thirty-two characters',
    AUTHLIB_URL: 'http://127.0.0.1:1',
    AUTHLIB_COOKIE_DOMAIN: 'localhost',
    TRUSTED_ORIGINS: 'http://127.0.0.1:1',
    ADMIN_EMAILS: '',
    IDP_CLIENT_ID: 'keel',
    IDP_CLIENT_SECRET: 'keel-secret',
    IDP_ISSUER_URL: 'http://127.0.0.1:9/unused',
    DEFAULT_BUDGET_USD: '5',
    INTERNAL_API_TOKEN: INTERNAL_TOKEN,
    KEEL_INSTANCE_ID: `test-${uniqueSuffix()}`,
  });
  identity = await buildAuthApp({ pool: identityPool, env, redis }, { logger: false });
  identityUrl = await identity.listen({ host: '127.0.0.1', port: 0 });

  const tables = identityTables(schema);
  for (const [name, role, approved] of [
    ['member', 'user', true],
    ['spender', 'user', true],
    ['boss', 'admin', true],
    ['gone', 'user', true],
  ] as const) {
    const user = await createCredentialUser(identityPool, tables, {
      email: `${name}@example.test`,
      password: 'a password nobody uses',
      role,
      approved,
      defaultBudgetCents: 500,
    });
    users[name] = user.id;
    tokens[name] = (
      await createToken(ingest.pool, { userId: user.id, orgId: 'org-test', isAdmin: role === 'admin' })
    ).token;
  }
  await identityPool.query(`UPDATE ${tables.users} SET banned = true, ban_reason = 'disabled_by_admin' WHERE id = $1`, [
    users.gone,
  ]);
  const now = new Date();
  await recordJobCost(ingest.pool, ingest.schema, { userId: users.spender!, costUsd: 5, createdAt: now });
  await recordJobCost(ingest.pool, ingest.schema, { userId: users.member!, costUsd: 4.99, createdAt: now });
  await recordJobCost(ingest.pool, ingest.schema, { userId: users.boss!, costUsd: 500, createdAt: now });

  connection = Connection.lazy({ address: '127.0.0.1:1', interceptors: [] });
  api = await apiOver(identityUrl, INTERNAL_TOKEN);
});

afterAll(async () => {
  await api?.close();
  await identity?.close();
  await connection?.close().catch(() => undefined);
  redis?.disconnect();
  await queue?.close();
  await identityPool?.end();
  await ingest?.drop();
  await adminQuery(`DROP DATABASE IF EXISTS "${identityDbName}"`);
});

async function jobCount(): Promise<number> {
  const { rows } = await ingest.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM job_runs');
  return rows[0]!.n;
}

const submit = (app: FastifyInstance, who: string) =>
  app.inject({
    method: 'POST',
    url: '/v1/chat',
    headers: { authorization: `Bearer ${tokens[who]}` },
    payload: { prompt: 'Write hello.md' },
  });

test('the identity database really is apart: the ingest pool cannot see its users', async () => {
  await expect(ingest.pool.query('SELECT 1 FROM identity.users')).rejects.toThrow(/does not exist/);
});

test('a member whose spend in the ingest ledger reached the budget the identity service holds is refused 402', async () => {
  const before = await jobCount();
  const res = await submit(api, 'spender');
  expect(res.statusCode).toBe(402);
  expect(errorOf(res)).toMatchObject({ code: 'over_budget' });
  expect(errorOf(res).message).toContain('$5.00');
  expect(await jobCount()).toBe(before);
});

test('a member under budget and an admin over it pass admission (and reach the unreachable job queue)', async () => {
  for (const who of ['member', 'boss']) {
    const res = await submit(api, who);
    expect(errorOf(res).code).toBe('queue_unavailable');
  }
});

test('a disabled identity user is refused 403 account_disabled', async () => {
  const res = await submit(api, 'gone');
  expect(res.statusCode).toBe(403);
  expect(errorOf(res).code).toBe('account_disabled');
});

test('the internal endpoint wants the shared secret; with a wrong one the API refuses 503 and starts nothing', async () => {
  const bare = await fetch(`${identityUrl}/internal/budget-policy?user=${users.member}`);
  expect(bare.status).toBe(401);
  const wrong = await fetch(`${identityUrl}/internal/budget-policy?user=${users.member}`, {
    headers: { authorization: 'Bearer not-the-secret' },
  });
  expect(wrong.status).toBe(401);
  const right = await fetch(`${identityUrl}/internal/budget-policy?user=${users.member}`, {
    headers: { authorization: `Bearer ${INTERNAL_TOKEN}` },
  });
  expect(await right.json()).toEqual({
    user: { id: users.member, role: 'user', budgetCents: 500, disabled: false },
    defaultBudgetCents: 500,
  });

  const misconfigured = await apiOver(identityUrl, 'a-wrong-internal-token-also-thirty-two-chars-long');
  try {
    const before = await jobCount();
    const res = await submit(misconfigured, 'member');
    expect(res.statusCode).toBe(503);
    expect(errorOf(res).code).toBe('identity_unavailable');
    expect(await jobCount()).toBe(before);
  } finally {
    await misconfigured.close();
  }
});
