import net from 'node:net';
import { Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import Redis from 'ioredis';
import { buildApp } from '../../api/app';
import { identityServicePeople } from '../../approvals/escalation-people';
import { buildAuthApp } from '../../auth/app';
import { authEnv } from '../../auth/config';
import { createCredentialUser } from '../../auth/credential-users';
import { ingestTables } from '../../db/qualified-tables';
import { createToken } from '../../db/tokens';
import { identityServiceBudget } from '../../jobs/budget-sources';
import type { QueueStore } from '../../queue/queue-store';
import { testRedisUrl, uniqueSuffix } from './env';
import { createIdentityDatabase, INTERNAL_TOKEN, type IdentityDatabase } from './identity-database';
import { apiDepsOver, createTestDatabase, createTestQueue, type TestDatabase } from './harness';
import { cookieHeader, errorOf, recordJobCost } from './identity-harness';
import { eventually } from './eventually';

/**
 * Budgets when the identity service and the ingest service keep separate databases: the identity tables live in a
 * database of their own that the ingest API cannot reach, and admission asks the identity service's internal
 * endpoint (shared secret) for the user's role, budget and status, summing spend from its own ledger. The refusals
 * come before Temporal is reached, so the Temporal client points at a closed port (as in the budget-gate test).
 * Disabling a user there revokes their API tokens here through the ingest API's internal endpoint (docs/tokens.md),
 * and the identity service reads ownership and spend from the ingest API's ledger routes (docs/identity.md).
 */
let ingest: TestDatabase;
let identityDb: IdentityDatabase;
let identityPool: Pool;
let redis: Redis;
let queue: QueueStore;
let connection: Connection;
let identity: FastifyInstance;
let identityUrl: string;
let api: FastifyInstance;
let apiUrl: string;
let identityEnv: ReturnType<typeof authEnv.parse>;
const PASSWORD = 'a password nobody uses';
const tokens: Record<string, string> = {};
const users: Record<string, string> = {};

function apiOver(url: string, token: string, internalToken = INTERNAL_TOKEN): Promise<FastifyInstance> {
  return buildApp(
    {
      ...apiDepsOver({ pool: ingest.pool, queue, connection }),
      internalToken,
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
  ingest = await createTestDatabase();
  queue = await createTestQueue();
  redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 2 });
  identityDb = await createIdentityDatabase();
  identityPool = identityDb.pool;
  const schema = identityDb.schema;
  const env = (identityEnv = authEnv.parse({
    DATABASE_URL: identityDb.dsn,
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
  }));
  identity = await buildAuthApp({ pool: identityPool, env, redis }, { logger: false });
  identityUrl = await identity.listen({ host: '127.0.0.1', port: 0 });

  const { tables } = identityDb;
  for (const [name, role, approved] of [
    ['member', 'user', true],
    ['spender', 'user', true],
    ['boss', 'admin', true],
    ['gone', 'user', true],
    ['leaver', 'user', true],
    ['latecomer', 'user', true],
  ] as const) {
    const user = await createCredentialUser(identityPool, tables, {
      email: `${name}@example.test`,
      password: PASSWORD,
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
  apiUrl = await api.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await api?.close();
  await identity?.close();
  await connection?.close().catch(() => undefined);
  redis?.disconnect();
  await queue?.close();
  await ingest?.drop();
  await identityDb?.drop();
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

/** The identity service as deployed apart from the ingest API: INGEST_URL names it, the internal token is shared. */
async function identityDelivering(ingestUrl: string): Promise<FastifyInstance> {
  return buildAuthApp(
    { pool: identityPool, env: { ...identityEnv, INGEST_URL: ingestUrl, KEEL_INSTANCE_ID: `test-${uniqueSuffix()}` } },
    { logger: false },
  );
}

/** Signs `who` in on `app` and returns their Cookie header. */
async function signIn(app: FastifyInstance, who: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: { email: `${who}@example.test`, password: PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return cookieHeader(res);
}

async function disable(app: FastifyInstance, who: string): Promise<void> {
  const res = await app.inject({
    method: 'PATCH',
    url: `/admin/users/${users[who]}`,
    headers: { cookie: await signIn(app, 'boss') },
    payload: { disabled: true },
  });
  expect(res.statusCode).toBe(200);
}

const read = (app: FastifyInstance, who: string) =>
  app.inject({ method: 'GET', url: '/v1/projects', headers: { authorization: `Bearer ${tokens[who]}` } });

async function outboxRow(who: string) {
  const { rows } = await identityPool.query<{ attempts: number; delivered: boolean; last_error: string | null }>(
    `SELECT attempts, delivered_at IS NOT NULL AS delivered, last_error
       FROM ${identityDb.tables.revocationOutbox} WHERE user_id = $1`,
    [users[who]],
  );
  return rows;
}

/** Polls `check` until it holds (the delivery runs after the admin's answer); fails after 20 s. */
test('escalations read who holds a role from the identity service: enabled users only, by the shared secret', async () => {
  const people = identityServicePeople({ identityUrl, internalToken: INTERNAL_TOKEN });
  expect(await people.withRole('admin')).toEqual([{ id: users.boss, email: 'boss@example.test', name: null }]);
  // The disabled user is not among the members a role:user escalation names.
  const members = (await people.withRole('user')).map((p) => p.email);
  expect(members).toContain('member@example.test');
  expect(members).not.toContain('gone@example.test');
  expect(await people.withRole('release-managers')).toEqual([]);

  const path = `${identityUrl}/internal/people-with-role?role=admin`;
  expect((await fetch(path)).status).toBe(401);
  const bad = await fetch(`${identityUrl}/internal/people-with-role?role=${encodeURIComponent('a b')}`, {
    headers: { authorization: `Bearer ${INTERNAL_TOKEN}` },
  });
  expect(bad.status).toBe(400);
  await expect(
    identityServicePeople({ identityUrl, internalToken: 'not-the-secret' }).withRole('admin'),
  ).rejects.toThrow(/answered 401/);
});

test("the ingest API's revoke-tokens endpoint wants the shared internal token", async () => {
  const url = `${apiUrl}/internal/users/${users.member}/revoke-tokens`;
  expect((await fetch(url, { method: 'POST' })).status).toBe(401);
  const wrong = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer not-the-secret' } });
  expect(wrong.status).toBe(401);
  expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
  expect((await read(api, 'member')).statusCode).toBe(200);
});

test('disabling a user in the identity service revokes their ingest API tokens: the next request is 401', async () => {
  const delivering = await identityDelivering(apiUrl);
  try {
    expect((await read(api, 'leaver')).statusCode).toBe(200);
    await disable(delivering, 'leaver');
    await eventually(async () => (await read(api, 'leaver')).statusCode === 401, { what: 'the revocation' });
    expect(errorOf(await read(api, 'leaver')).code).toBe('unauthorized');
    expect((await submit(api, 'leaver')).statusCode).toBe(401);
    expect(await outboxRow('leaver')).toEqual([{ attempts: 1, delivered: true, last_error: null }]);
    // Nobody else's token was touched.
    expect((await read(api, 'member')).statusCode).toBe(200);
  } finally {
    await delivering.close();
  }
});

test('a revocation the ingest API cannot take yet is kept and delivered once it answers', async () => {
  // A port nothing listens on yet: the ingest API that will serve it is started after the disable.
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const delivering = await identityDelivering(`http://127.0.0.1:${port}`);
  const late = await apiOver(identityUrl, INTERNAL_TOKEN);
  try {
    await disable(delivering, 'latecomer');
    await eventually(async () => (await outboxRow('latecomer'))[0]?.last_error != null, { what: 'a failed delivery' });
    expect(await outboxRow('latecomer')).toMatchObject([{ delivered: false }]);
    // Until it is delivered, admission refuses the disabled user's submissions all the same.
    expect(errorOf(await submit(late, 'latecomer')).code).toBe('account_disabled');
    await late.listen({ host: '127.0.0.1', port });
    await eventually(async () => (await outboxRow('latecomer'))[0]!.delivered, {
      what: 'the delivery after the ingest API came up',
    });
    expect((await read(late, 'latecomer')).statusCode).toBe(401);
  } finally {
    await late.close();
    await delivering.close();
  }
});

describe('the identity service on its own database reads ownership and spend from the ingest API', () => {
  let apart: FastifyInstance;
  let owned: { jobId: string; workflowId: string };
  let others: { jobId: string; workflowId: string };
  const cookies: Record<string, string> = {};
  const get = (app: FastifyInstance, url: string, who: string) =>
    app.inject({ method: 'GET', url, headers: { cookie: cookies[who]! } });

  beforeAll(async () => {
    apart = await identityDelivering(apiUrl);
    const now = new Date();
    owned = await recordJobCost(ingest.pool, ingest.schema, { userId: users.member!, costUsd: 0, createdAt: now });
    others = await recordJobCost(ingest.pool, ingest.schema, { userId: users.boss!, costUsd: 0, createdAt: now });
    for (const who of ['member', 'spender', 'boss']) cookies[who] = await signIn(apart, who);
  });
  afterAll(async () => {
    await apart?.close();
  });

  test('the preflight answers ownership from the ledger: own 200, another user’s 403, unknown 404, admin 200', async () => {
    const preflight = (query: string, who: string) => get(apart, `/internal/preflight?${query}`, who);
    expect((await preflight(`job=${owned.jobId}`, 'member')).statusCode).toBe(200);
    expect((await preflight(`workflow=${owned.workflowId}&job=${owned.jobId}`, 'member')).statusCode).toBe(200);
    expect((await preflight(`workflow=${owned.workflowId}`, 'member')).statusCode).toBe(200);
    const foreign = await preflight(`job=${others.jobId}`, 'member');
    expect(foreign.statusCode).toBe(403);
    expect(errorOf(foreign).code).toBe('not_owner');
    expect((await preflight(`workflow=${others.workflowId}`, 'member')).statusCode).toBe(403);
    expect((await preflight('job=job-nobody-made', 'member')).statusCode).toBe(404);
    // A job named with a workflow it is not in is not found, as on one database.
    expect((await preflight(`workflow=${others.workflowId}&job=${owned.jobId}`, 'member')).statusCode).toBe(404);
    expect((await preflight(`job=${owned.jobId}`, 'boss')).statusCode).toBe(200);
  });

  test('budgets read the ledger’s spend: the preflight’s 402, My budget and the admin listing', async () => {
    const over = await get(apart, '/internal/preflight?budget=1', 'spender');
    expect(over.statusCode).toBe(402);
    expect(errorOf(over).code).toBe('over_budget');
    expect((await get(apart, '/internal/preflight?budget=1', 'member')).statusCode).toBe(200);
    const mine = await get(apart, '/me/budget', 'member');
    expect(mine.json()).toMatchObject({ spentCents: 499, budgetCents: 500, overBudget: false });
    const listing = await get(apart, '/admin/users', 'boss');
    expect(listing.statusCode).toBe(200);
    const spent = Object.fromEntries(
      listing.json<{ users: Array<{ id: string; spentCents: number }> }>().users.map((u) => [u.id, u.spentCents]),
    );
    expect(spent).toMatchObject({ [users.spender!]: 500, [users.member!]: 499, [users.boss!]: 50_000 });
  });

  test('an ingest API that does not answer is a 503 with the reason and Retry-After, never a 500', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const stranded = await identityDelivering(`http://127.0.0.1:${closed}`);
    try {
      cookies.strandedBoss = await signIn(stranded, 'boss');
      for (const url of [`/internal/preflight?job=${owned.jobId}`, '/internal/preflight?budget=1', '/admin/users']) {
        const res = await get(stranded, url, 'strandedBoss');
        expect({ url, status: res.statusCode }).toEqual({ url, status: 503 });
        expect(errorOf(res).code).toBe('ingest_unavailable');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    } finally {
      await stranded.close();
    }
  });

  test('the ledger routes want the shared internal token', async () => {
    const url = `${apiUrl}/internal/ledger/owners?job=${owned.jobId}`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer not-the-secret' } })).status).toBe(401);
    const right = await fetch(url, { headers: { authorization: `Bearer ${INTERNAL_TOKEN}` } });
    expect(await right.json()).toEqual({
      job: { workflow_id: owned.workflowId, created_by: users.member },
      workflow: null,
    });
    const bad = await fetch(`${apiUrl}/internal/ledger/spend?since=yesterday`, {
      headers: { authorization: `Bearer ${INTERNAL_TOKEN}` },
    });
    expect(bad.status).toBe(400);
  });
});
