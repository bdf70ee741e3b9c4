import { Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app';
import { sharedDatabaseBudget } from '../../jobs/budget-sources';
import { identityTables, ingestTables } from '../../db/qualified-tables';
import { createCredentialUser } from '../../auth/credential-users';
import { migrateIdentity } from '../../auth/migrate';
import { createToken } from '../../db/tokens';
import type { QueueStore } from '../../queue/queue-store';
import { apiDepsOver, createTestDatabase, createTestQueue, type TestDatabase } from './harness';
import { uniqueSuffix } from './env';
import { recordJobCost, errorOf } from './identity-harness';

// The 402 is decided before anything touches Temporal, so this file needs no Temporal server: the client
// points at a closed port and is only reached by a submission the gate lets through.
let db: TestDatabase;
let queue: QueueStore;
let connection: Connection;
let app: FastifyInstance;
let identitySchema: string;
const tokens: Record<string, string> = {};
const users: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  queue = await createTestQueue();
  identitySchema = `id_${uniqueSuffix()}`;
  await migrateIdentity(db.pool, identitySchema);
  const tables = identityTables(identitySchema);
  for (const [name, role] of [
    ['member', 'user'],
    ['spender', 'user'],
    ['boss', 'admin'],
  ] as const) {
    const user = await createCredentialUser(db.pool, tables, {
      email: `${name}@example.test`,
      password: 'a password nobody uses',
      role,
      approved: true,
      defaultBudgetCents: 500,
    });
    users[name] = user.id;
    tokens[name] = (
      await createToken(db.pool, { userId: user.id, orgId: 'org-test', isAdmin: role === 'admin' })
    ).token;
  }
  const now = new Date();
  await recordJobCost(db.pool, db.schema, { userId: users.spender!, costUsd: 5, createdAt: now });
  await recordJobCost(db.pool, db.schema, { userId: users.boss!, costUsd: 500, createdAt: now });
  await recordJobCost(db.pool, db.schema, { userId: users.member!, costUsd: 4.99, createdAt: now });

  // No gRPC retry interceptor: a submission past the gate fails at once instead of retrying for seconds.
  connection = Connection.lazy({ address: '127.0.0.1:1', interceptors: [] });
  app = await buildApp(
    {
      ...apiDepsOver({ pool: db.pool, queue, connection }),
      budget: sharedDatabaseBudget({
        pool: db.pool,
        lookup: { identity: tables, ledger: ingestTables(db.schema), defaultBudgetCents: 500 },
      }),
    },
    { logger: false },
  );
});

afterAll(async () => {
  await app?.close();
  await connection?.close().catch(() => undefined);
  await queue?.close();
  await db?.pool.query(`DROP SCHEMA IF EXISTS "${identitySchema}" CASCADE`);
  await db?.drop();
});

async function jobCount(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM job_runs');
  return rows[0]!.n;
}

const submit = (who: string) =>
  app.inject({
    method: 'POST',
    url: '/v1/chat',
    headers: { authorization: `Bearer ${tokens[who]}` },
    payload: { prompt: 'Write hello.md' },
  });

describe('the budget gate on run submission', () => {
  test('POST /v1/chat answers 402 to a member whose month-to-date spend reached the budget; nothing is stored', async () => {
    const before = await jobCount();
    const promptsBefore = await db.pool.query('SELECT 1 FROM prompt_threads');
    const res = await submit('spender');
    expect(res.statusCode).toBe(402);
    expect(errorOf(res)).toMatchObject({ code: 'over_budget' });
    expect(errorOf(res).message).toContain('$5.00');
    expect(await jobCount()).toBe(before);
    const promptsAfter = await db.pool.query('SELECT 1 FROM prompt_threads');
    expect(promptsAfter.rows).toHaveLength(promptsBefore.rows.length);
  });

  test('a member under budget and an admin over it both pass the gate (the submission goes on to Temporal)', async () => {
    for (const who of ['member', 'boss']) {
      const res = await submit(who);
      expect(res.statusCode).not.toBe(402);
      // Past the gate, the submission reaches the (here unreachable) job queue: 503, still nothing stored.
      expect(errorOf(res).code).toBe('queue_unavailable');
    }
    expect(await jobCount()).toBe(3);
  });

  test('POST /v1/workflows and POST /v1/workflows/:id/prompts are gated the same way', async () => {
    // A workflow of the spender's org, written directly: creating one through the API would need Temporal.
    await db.pool.query(
      "INSERT INTO workflows (workflow_id, created_by, org_id) VALUES ('wf-880001', $1, 'org-test')",
      [users.spender],
    );
    const before = await jobCount();
    for (const [url, payload] of [
      ['/v1/workflows', { prompt: 'Write hello.md' }],
      ['/v1/workflows/wf-880001/prompts', { prompt: 'and a second line' }],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${tokens.spender}` },
        payload,
      });
      expect(res.statusCode).toBe(402);
      expect(errorOf(res).code).toBe('over_budget');
    }
    expect(await jobCount()).toBe(before);
    const { rows } = await db.pool.query("SELECT 1 FROM prompt_threads WHERE workflow_id = 'wf-880001'");
    expect(rows).toHaveLength(0);
  });
});
