import { Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app';
import { sharedDatabaseBudget } from '../../jobs/budget-sources';
import { createCredentialUser } from '../../auth/credential-users';
import { migrateIdentity } from '../../auth/migrate';
import { identityTables, ingestTables } from '../../db/qualified-tables';
import { createApproval } from '../../db/approvals';
import { createToken } from '../../db/tokens';
import type { QueueStore } from '../../queue/queue-store';
import { uniqueSuffix } from './env';
import { apiDepsOver, createTestDatabase, createTestQueue, type TestDatabase } from './harness';
import { errorOf, recordJobCost } from './identity-harness';

// The ingest API's side of the console's trust, driven directly: which tokens may name an acting user, and that the
// per-user rate limit and the budget gate then apply to that user. Refusals come before Temporal is reached, so the
// client points at a closed port (as in the budget-gate test).
let db: TestDatabase;
let queue: QueueStore;
let connection: Connection;
let app: FastifyInstance;
let identitySchema: string;
let consoleToken: string;
let ordinaryToken: string;
const users: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  queue = await createTestQueue();
  identitySchema = `id_${uniqueSuffix()}`;
  await migrateIdentity(db.pool, identitySchema);
  const tables = identityTables(identitySchema);
  for (const [name, role] of [
    ['spender', 'user'],
    ['saver', 'user'],
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
  }
  await recordJobCost(db.pool, db.schema, { userId: users.spender!, costUsd: 5, createdAt: new Date() });
  await recordJobCost(db.pool, db.schema, { userId: users.boss!, costUsd: 50, createdAt: new Date() });
  consoleToken = (
    await createToken(db.pool, { userId: 'console', orgId: 'org-test', isAdmin: true, actsForUsers: true })
  ).token;
  ordinaryToken = (await createToken(db.pool, { userId: 'ci-bot', orgId: 'org-test', isAdmin: true })).token;

  connection = Connection.lazy({ address: '127.0.0.1:1', interceptors: [] });
  app = await buildApp(
    {
      ...apiDepsOver({ pool: db.pool, queue, connection }),
      rateLimits: { userPerMinute: 5, orgPerMinute: 1000 },
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

function asUser(token: string, headers: Record<string, string>, url = '/v1/workflows') {
  return app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, ...headers } });
}

test('an ordinary token naming a user is refused with 403, even an admin token; without the headers it works', async () => {
  for (const headers of <Array<Record<string, string>>>[
    { 'x-keel-acting-user': users.saver!, 'x-keel-acting-role': 'user' },
    { 'x-keel-acting-user': users.saver! },
  ]) {
    const res = await asUser(ordinaryToken, headers);
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('acting_not_allowed');
  }
  expect((await asUser(ordinaryToken, {})).statusCode).toBe(200);
});

test("the console's token must name both the user and the role, in a sane form", async () => {
  const missingRole = await asUser(consoleToken, { 'x-keel-acting-user': users.saver! });
  expect(missingRole.statusCode).toBe(400);
  expect(errorOf(missingRole).message).toContain('x-keel-acting-role');
  const spaced = await asUser(consoleToken, { 'x-keel-acting-user': 'two words', 'x-keel-acting-role': 'user' });
  expect(spaced.statusCode).toBe(400);
});

test('the per-user rate limit counts each acting user on their own', async () => {
  // Acting ids the API has not seen: it trusts the console for who they are, and counts them apart.
  const probe = { 'x-keel-acting-user': 'usr_rate_probe', 'x-keel-acting-role': 'user' };
  const statuses: number[] = [];
  for (let i = 0; i < 6; i += 1) statuses.push((await asUser(consoleToken, probe, '/v1/projects')).statusCode);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  // Another person through the same console token has a window of their own.
  const other = await asUser(consoleToken, { 'x-keel-acting-user': 'usr_rate_other', 'x-keel-acting-role': 'user' });
  expect(other.statusCode).toBe(200);
});

test("the budget gate reads the acting user's budget: over it 402, an admin exempt", async () => {
  const submit = (user: string, role: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/chat',
      headers: { authorization: `Bearer ${consoleToken}`, 'x-keel-acting-user': user, 'x-keel-acting-role': role },
      payload: { prompt: 'Write hello.md' },
    });
  const over = await submit(users.spender!, 'user');
  expect(over.statusCode).toBe(402);
  expect(errorOf(over).code).toBe('over_budget');
  // Past the gate the submission reaches the (here unreachable) job queue: the admin was not refused for money.
  const admin = await submit(users.boss!, 'admin');
  expect(errorOf(admin).code).toBe('queue_unavailable');
});

test("behind the console's preflight, the API itself hides another member's job, workflow and approval (404)", async () => {
  const workflowId = 'wf-990001';
  const jobId = `job-${uniqueSuffix()}`;
  await db.pool.query("INSERT INTO workflows (workflow_id, created_by, org_id) VALUES ($1, $2, 'org-test')", [
    workflowId,
    users.saver,
  ]);
  await db.pool.query(
    "INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ('pt-990001', $1, 'p', $2)",
    [workflowId, users.saver],
  );
  await db.pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue)
     VALUES ($1, $2, 'pt-990001', 'paused', $3, 'org-test', 'q')`,
    [jobId, workflowId, users.saver],
  );
  const approval = await createApproval(db.pool, {
    approvalId: `ap-${uniqueSuffix()}`,
    jobId,
    workflowId,
    waitingWorkflowId: `${jobId}/L4.executor/1`,
    role: 'L4.executor',
    action: 'deploy',
    reason: 'asked to',
  });
  const as = (user: string, role: string) => ({ 'x-keel-acting-user': user, 'x-keel-acting-role': role });
  for (const url of [`/v1/jobs/${jobId}`, `/v1/workflows/${workflowId}`, `/v1/approvals/${approval.approval_id}`]) {
    const stranger = await asUser(consoleToken, as('usr_stranger', 'user'), url);
    expect(stranger.statusCode).toBe(404);
    expect((await asUser(consoleToken, as(users.saver!, 'user'), url)).statusCode).toBe(200);
    expect((await asUser(consoleToken, as(users.boss!, 'admin'), url)).statusCode).toBe(200);
    // A machine client's ordinary token of the org is unaffected: it keeps the org rule.
    expect((await asUser(ordinaryToken, {}, url)).statusCode).toBe(200);
  }
});
