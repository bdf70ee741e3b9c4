import { COOKIE_CACHE_MS } from '../../auth/cookie-cache';
import { recordJobCost, startIdentity, type IdentityUnderTest, errorOf } from './identity-harness';

let identity: IdentityUnderTest;
let alice: { id: string; cookie: string };
let bob: { id: string; cookie: string };
let admin: { id: string; cookie: string };
let alicesJob: { jobId: string; workflowId: string };

beforeAll(async () => {
  identity = await startIdentity({ DEFAULT_BUDGET_USD: '10' });
  const make = async (email: string, role: 'admin' | 'user' = 'user') => {
    const user = await identity.createUser({ email, role });
    return { id: user.id, cookie: await identity.signIn(email) };
  };
  alice = await make('alice@example.test');
  bob = await make('bob@example.test');
  admin = await make('admin@example.test', 'admin');
  alicesJob = await recordJobCost(identity.pool, identity.ingestSchema, {
    userId: alice.id,
    costUsd: 0.5,
    createdAt: new Date(identity.clock.ms),
  });
});

afterAll(async () => {
  await identity.close();
});

const preflight = (query: string, cookie?: string) =>
  identity.app.inject({ method: 'GET', url: `/internal/preflight${query}`, headers: cookie ? { cookie } : {} });

describe('GET /internal/preflight', () => {
  test('401 without a session or with a forged cookie', async () => {
    expect((await preflight('')).statusCode).toBe(401);
    expect((await preflight('', 'keel_session=abc.def')).statusCode).toBe(401);
    const res = await preflight('');
    expect(errorOf(res).code).toBe('unauthenticated');
  });

  test('200 with id, role and (budget=1) budget state for the owner', async () => {
    const res = await preflight(`?workflow=${alicesJob.workflowId}&job=${alicesJob.jobId}&budget=1`, alice.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      user: { id: alice.id, email: 'alice@example.test', role: 'user' },
      budget: { exempt: false, budgetCents: 1000, spentCents: 50, overBudget: false },
      session: { source: 'database' },
    });
  });

  test('404 for an unknown workflow or job, or a job outside the named workflow', async () => {
    const unknownWf = await preflight('?workflow=wf-404404404', alice.cookie);
    expect(unknownWf.statusCode).toBe(404);
    expect(errorOf(unknownWf).code).toBe('not_found');
    expect((await preflight('?job=job-nope', alice.cookie)).statusCode).toBe(404);
    const other = await recordJobCost(identity.pool, identity.ingestSchema, {
      userId: alice.id,
      costUsd: 0,
      createdAt: new Date(identity.clock.ms),
    });
    expect((await preflight(`?workflow=${other.workflowId}&job=${alicesJob.jobId}`, alice.cookie)).statusCode).toBe(
      404,
    );
  });

  test("403 for someone else's workflow or job; admins bypass ownership", async () => {
    const wf = await preflight(`?workflow=${alicesJob.workflowId}`, bob.cookie);
    expect(wf.statusCode).toBe(403);
    expect(errorOf(wf).code).toBe('not_owner');
    expect((await preflight(`?job=${alicesJob.jobId}`, bob.cookie)).statusCode).toBe(403);
    expect((await preflight(`?workflow=${alicesJob.workflowId}&job=${alicesJob.jobId}`, admin.cookie)).statusCode).toBe(
      200,
    );
  });

  test('402 over budget only with budget=1; admins are exempt', async () => {
    await recordJobCost(identity.pool, identity.ingestSchema, {
      userId: bob.id,
      costUsd: 10,
      createdAt: new Date(identity.clock.ms),
    });
    await recordJobCost(identity.pool, identity.ingestSchema, {
      userId: admin.id,
      costUsd: 1000,
      createdAt: new Date(identity.clock.ms),
    });
    const over = await preflight('?budget=1', bob.cookie);
    expect(over.statusCode).toBe(402);
    expect(errorOf(over).code).toBe('over_budget');
    expect((await preflight('', bob.cookie)).statusCode).toBe(200);
    const exempt = await preflight('?budget=1', admin.cookie);
    expect(exempt.statusCode).toBe(200);
    expect(exempt.json<{ budget: Record<string, unknown> }>().budget).toMatchObject({
      exempt: true,
      overBudget: false,
      spentCents: 100000,
    });
  });

  test('a plain check is answered from the 5-minute cookie cache; budget=1 and fresh=1 bypass it', async () => {
    const user = await identity.createUser({ email: 'cached@example.test' });
    const cookie = await identity.signIn('cached@example.test');
    // Disable the user behind the service's back: cached checks cannot know, fresh ones must.
    await identity.pool.query(`UPDATE ${identity.tables.users} SET banned = true, ban_reason = 'x' WHERE id = $1`, [
      user.id,
    ]);
    const cached = await preflight('', cookie);
    expect(cached.statusCode).toBe(200);
    expect(cached.json<{ session: { source: string } }>().session.source).toBe('cache');
    expect((await preflight('?fresh=1', cookie)).statusCode).toBe(401);
    expect((await preflight('?budget=1', cookie)).statusCode).toBe(401);
  });

  test('the cache expires after 5 minutes of the injected clock', async () => {
    const user = await identity.createUser({ email: 'expiring@example.test' });
    const cookie = await identity.signIn('expiring@example.test');
    await identity.pool.query(`DELETE FROM ${identity.tables.sessions} WHERE user_id = $1`, [user.id]);
    expect((await preflight('', cookie)).json<{ session: { source: string } }>().session.source).toBe('cache');
    identity.clock.advance(COOKIE_CACHE_MS);
    expect((await preflight('', cookie)).statusCode).toBe(401);
  });

  test('bad query parameters are 400, not 5xx', async () => {
    const res = await preflight('?budget=yes', alice.cookie);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('invalid_request');
    expect((await preflight('?surprise=1', alice.cookie)).statusCode).toBe(400);
  });
});
