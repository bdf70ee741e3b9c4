import { createToken } from '../../db/tokens';
import { recordJobCost } from './identity-harness';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/*
 * Org and project budgets on the ingest API (docs/budgets.md): admins set and read them (everyone else 403, bad input
 * 400), and a submission whose project's or org's month-to-date spend has reached its budget is refused 402 naming
 * the budget and what is left, before anything is stored or started. The real Temporal dev server takes the jobs that
 * pass; no worker runs them. Spend is recorded straight into the ledger (job_runs.cost_usd).
 */
let infra: Infrastructure;
let keel: KeelUnderTest;
/** Tokens of two orgs (root-b an admin); the harness's own token (`keel.token`) is an admin of org-test. */
const tokens: Record<string, string> = {};
const JOB_BUDGET_MAX_USD = 20;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel({ ...infra, jobBudgetUsd: 5, jobBudgetMaxUsd: JOB_BUDGET_MAX_USD });
  for (const [name, org, isAdmin] of [
    ['alice', 'org-a', false],
    ['bob', 'org-b', false],
    ['root-b', 'org-b', true],
  ] as const) {
    tokens[name] = (await createToken(infra.db.pool, { userId: name, orgId: org, isAdmin })).token;
  }
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

/** The answers this file reads, as one loose shape: each test reads the fields its route answers. */
interface Answer {
  error: { code: string; message: string; budget: { scope: string; project_slug?: string } };
  job_id: string;
  period_start: string;
  orgs: Array<{ org_id: string; budget_cents: number | null }>;
  projects: unknown[];
}

async function call(
  path: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Answer }> {
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.token ?? keel.token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Answer };
}

const setOrgBudget = (org: string, cents: number | null) =>
  call(`/v1/admin/budgets/orgs/${org}`, { method: 'PUT', body: { budget_cents: cents } });
const setProjectBudget = (org: string, slug: string, cents: number | null) =>
  call(`/v1/admin/budgets/orgs/${org}/projects/${slug}`, { method: 'PUT', body: { budget_cents: cents } });

async function jobCount(): Promise<number> {
  const { rows } = await infra.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM job_runs');
  return rows[0]!.n;
}

async function createProject(token: string, slug: string): Promise<void> {
  const res = await call('/v1/projects', { method: 'POST', token, body: { name: slug, slug } });
  expect(res.status).toBe(201);
}

const startOfMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
};

describe('a project budget at submission', () => {
  beforeAll(async () => {
    await createProject(tokens.alice!, 'site');
    await createProject(tokens.alice!, 'docs');
    // $1.00 spent in org-a's project `site` this month, $0.40 in `docs`, and an old job from last month.
    await recordJobCost(infra.db.pool, infra.db.schema, {
      userId: 'alice',
      orgId: 'org-a',
      projectSlug: 'site',
      costUsd: 0.6,
      createdAt: new Date(),
    });
    await recordJobCost(infra.db.pool, infra.db.schema, {
      userId: 'carol',
      orgId: 'org-a',
      projectSlug: 'site',
      costUsd: 0.4,
      createdAt: new Date(),
    });
    await recordJobCost(infra.db.pool, infra.db.schema, {
      userId: 'alice',
      orgId: 'org-a',
      projectSlug: 'docs',
      costUsd: 0.4,
      createdAt: new Date(),
    });
    await recordJobCost(infra.db.pool, infra.db.schema, {
      userId: 'alice',
      orgId: 'org-a',
      projectSlug: 'site',
      costUsd: 50,
      createdAt: new Date(Date.parse(startOfMonth()) - 1000),
    });
    expect((await setProjectBudget('org-a', 'site', 100)).status).toBe(200);
    expect((await setProjectBudget('org-a', 'docs', 100)).status).toBe(200);
  });

  test('is refused 402 naming the project budget and what is left, and nothing is stored', async () => {
    const before = await jobCount();
    const res = await call('/v1/chat', {
      method: 'POST',
      token: tokens.alice,
      body: { prompt: 'hi', project_slug: 'site' },
    });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      error: {
        code: 'over_budget',
        message:
          'project site of org org-a: month-to-date spend $1.00 has reached its monthly budget $1.00 ($0.00 left)',
        budget: {
          scope: 'project',
          org_id: 'org-a',
          project_slug: 'site',
          budget_cents: 100,
          spent_cents: 100,
          remaining_cents: 0,
          period_start: startOfMonth(),
        },
      },
    });
    expect(await jobCount()).toBe(before);
  });

  test('binds every door into the project: a new workflow, a prompt into its workflow, a chat into its workflow', async () => {
    const { workflowId } = await recordJobCost(infra.db.pool, infra.db.schema, {
      userId: 'alice',
      orgId: 'org-a',
      projectSlug: 'site',
      costUsd: 0,
      createdAt: new Date(),
    });
    const before = await jobCount();
    const refusals = await Promise.all([
      call('/v1/workflows', { method: 'POST', token: tokens.alice, body: { prompt: 'hi', project_slug: 'site' } }),
      call(`/v1/workflows/${workflowId}/prompts`, { method: 'POST', token: tokens.alice, body: { prompt: 'more' } }),
      call('/v1/chat', { method: 'POST', token: tokens.alice, body: { prompt: 'more', workflow_id: workflowId } }),
    ]);
    for (const res of refusals) {
      expect(res.status).toBe(402);
      expect(res.body.error).toMatchObject({ code: 'over_budget', budget: { scope: 'project', project_slug: 'site' } });
    }
    expect(await jobCount()).toBe(before);
  });

  test("leaves the org's other projects and its jobs in no project free", async () => {
    const docs = await call('/v1/chat', {
      method: 'POST',
      token: tokens.alice,
      body: { prompt: 'hi', project_slug: 'docs' },
    });
    expect(docs.status).toBe(202);
    const none = await call('/v1/chat', { method: 'POST', token: tokens.alice, body: { prompt: 'hi' } });
    expect(none.status).toBe(202);
  });

  test('a raised budget lets the next submission through; a removed one too', async () => {
    expect((await setProjectBudget('org-a', 'site', 101)).body).toMatchObject({
      remaining_cents: 1,
      over_budget: false,
    });
    const res = await call('/v1/chat', {
      method: 'POST',
      token: tokens.alice,
      body: { prompt: 'hi', project_slug: 'site' },
    });
    expect(res.status).toBe(202);
    expect((await setProjectBudget('org-a', 'site', 100)).status).toBe(200);
    expect(
      (await call('/v1/chat', { method: 'POST', token: tokens.alice, body: { prompt: 'hi', project_slug: 'site' } }))
        .status,
    ).toBe(402);
    expect((await setProjectBudget('org-a', 'site', null)).body).toMatchObject({
      budget_cents: null,
      remaining_cents: null,
    });
    expect(
      (await call('/v1/chat', { method: 'POST', token: tokens.alice, body: { prompt: 'hi', project_slug: 'site' } }))
        .status,
    ).toBe(202);
  });
});

describe('an org budget at submission', () => {
  beforeAll(async () => {
    await recordJobCost(infra.db.pool, infra.db.schema, {
      userId: 'bob',
      orgId: 'org-b',
      costUsd: 0.25,
      createdAt: new Date(),
    });
    await recordJobCost(infra.db.pool, infra.db.schema, {
      userId: 'dave',
      orgId: 'org-b',
      costUsd: 0.251,
      createdAt: new Date(),
    });
  });

  test('is refused 402 naming the org budget once spend reaches it, whoever in the org submits', async () => {
    expect((await setOrgBudget('org-b', 51)).body).toMatchObject({
      org_id: 'org-b',
      budget_cents: 51,
      // 0.25 + 0.251 rounded up to whole cents, as a user's spend is.
      spent_cents: 51,
      remaining_cents: 0,
      over_budget: true,
    });
    const before = await jobCount();
    const res = await call('/v1/chat', { method: 'POST', token: tokens.bob, body: { prompt: 'hi' } });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      error: {
        code: 'over_budget',
        message: 'org org-b: month-to-date spend $0.51 has reached its monthly budget $0.51 ($0.00 left)',
        budget: {
          scope: 'org',
          org_id: 'org-b',
          budget_cents: 51,
          spent_cents: 51,
          remaining_cents: 0,
          period_start: startOfMonth(),
        },
      },
    });
    // It binds the org's admins too: the budget is the org's, not a person's (an admin raises it instead).
    const admin = await call('/v1/chat', { method: 'POST', token: tokens['root-b'], body: { prompt: 'hi' } });
    expect(admin.status).toBe(402);
    expect(admin.body.error.budget.scope).toBe('org');
    expect(await jobCount()).toBe(before);
    // Other orgs are not held to it.
    expect((await call('/v1/chat', { method: 'POST', token: tokens.alice, body: { prompt: 'hi' } })).status).toBe(202);
  });

  test('under the budget the job starts', async () => {
    expect((await setOrgBudget('org-b', 52)).status).toBe(200);
    const res = await call('/v1/chat', { method: 'POST', token: tokens.bob, body: { prompt: 'hi' } });
    expect(res.status).toBe(202);
  });
});

describe('the admin routes', () => {
  test('read every org and project with budget, month-to-date spend and what is left', async () => {
    expect((await setOrgBudget('org-a', 1000)).status).toBe(200);
    expect((await setProjectBudget('org-a', 'docs', 100)).status).toBe(200);
    const res = await call('/v1/admin/budgets?org=org-a');
    expect(res.status).toBe(200);
    expect(res.body.period_start).toBe(startOfMonth());
    expect(res.body.orgs).toEqual([
      // 0.6 + 0.4 + 0.4 this month; last month's $50 does not count.
      { org_id: 'org-a', budget_cents: 1000, spent_cents: 140, remaining_cents: 860, over_budget: false },
    ]);
    expect(res.body.projects).toEqual([
      {
        org_id: 'org-a',
        project_slug: 'docs',
        name: 'docs',
        budget_cents: 100,
        spent_cents: 40,
        remaining_cents: 60,
        over_budget: false,
      },
      {
        org_id: 'org-a',
        project_slug: 'site',
        name: 'site',
        budget_cents: null,
        spent_cents: 100,
        remaining_cents: null,
        over_budget: false,
      },
    ]);
    const all = await call('/v1/admin/budgets');
    expect(all.body.orgs.map((o) => o.org_id)).toEqual(expect.arrayContaining(['org-a', 'org-b', 'org-test']));
  });

  test('record every change with the admin who made it and the value before', async () => {
    const { rows } = await infra.db.pool.query(
      `SELECT before_cents, after_cents, changed_by FROM tenant_budget_changes
        WHERE org_id = 'org-b' AND project_slug IS NULL ORDER BY id`,
    );
    expect(rows).toEqual([
      { before_cents: null, after_cents: 51, changed_by: 'dev' },
      { before_cents: 51, after_cents: 52, changed_by: 'dev' },
    ]);
  });

  test('are for admins only: a member token is 403, whatever it asks', async () => {
    for (const res of [
      await call('/v1/admin/budgets', { token: tokens.alice }),
      await call('/v1/admin/budgets/orgs/org-a', { method: 'PUT', token: tokens.alice, body: { budget_cents: 1 } }),
      await call('/v1/admin/budgets/orgs/org-a/projects/site', {
        method: 'PUT',
        token: tokens.alice,
        body: { budget_cents: 1 },
      }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('admin_only');
    }
    expect((await call('/v1/admin/budgets', { token: 'not-a-token' })).status).toBe(401);
  });

  test.each([
    ['a negative budget', { budget_cents: -1 }],
    ['a fraction of a cent', { budget_cents: 1.5 }],
    ['a string', { budget_cents: '100' }],
    ['no budget_cents', {}],
    ['an unknown field', { budget_cents: 1, currency: 'EUR' }],
    ['more than a million dollars', { budget_cents: 100_000_001 }],
  ])('refuse %s with 400 and change nothing', async (_what, body) => {
    const res = await call('/v1/admin/budgets/orgs/org-a', { method: 'PUT', body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect((await call('/v1/admin/budgets?org=org-a')).body.orgs[0]?.budget_cents).toBe(1000);
  });

  test('refuse a bad org or slug with 400 and an unknown project with 404', async () => {
    expect((await call('/v1/admin/budgets/orgs/org%20a', { method: 'PUT', body: { budget_cents: 1 } })).status).toBe(
      400,
    );
    expect(
      (await call('/v1/admin/budgets/orgs/org-a/projects/Bad_Slug', { method: 'PUT', body: { budget_cents: 1 } }))
        .status,
    ).toBe(400);
    expect((await call('/v1/admin/budgets?org=', {})).status).toBe(400);
    const missing = await call('/v1/admin/budgets/orgs/org-a/projects/nope', {
      method: 'PUT',
      body: { budget_cents: 1 },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    // A project of another org is another project: org-b has no `site`.
    expect(
      (await call('/v1/admin/budgets/orgs/org-b/projects/site', { method: 'PUT', body: { budget_cents: 1 } })).status,
    ).toBe(404);
  });
});

describe('budget_usd, the job ceiling of POST /v1/chat', () => {
  async function startedInput(jobId: string): Promise<{ budgetUsd?: number }> {
    const history = await infra.temporal.client.workflow.getHandle(jobId).fetchHistory();
    const payload = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
    return JSON.parse(Buffer.from(payload.data!).toString('utf8')) as { budgetUsd?: number };
  }

  test('is the job ceiling when given, the deployment default otherwise', async () => {
    const named = await call('/v1/chat', { method: 'POST', body: { prompt: 'hi', budget_usd: 12.5 } });
    expect(named.status).toBe(202);
    expect((await startedInput(named.body.job_id)).budgetUsd).toBe(12.5);
    const unnamed = await call('/v1/chat', { method: 'POST', body: { prompt: 'hi' } });
    expect((await startedInput(unnamed.body.job_id)).budgetUsd).toBe(5);
  });

  test('is refused above the deployment maximum (400 budget_above_maximum) and when not positive', async () => {
    const before = await jobCount();
    const above = await call('/v1/chat', {
      method: 'POST',
      body: { prompt: 'hi', budget_usd: JOB_BUDGET_MAX_USD + 0.01 },
    });
    expect(above.status).toBe(400);
    expect(above.body.error.code).toBe('budget_above_maximum');
    expect(above.body.error.message).toContain(`maximum job budget of ${JOB_BUDGET_MAX_USD} USD`);
    for (const budget of [0, -1, 'ten']) {
      const res = await call('/v1/chat', { method: 'POST', body: { prompt: 'hi', budget_usd: budget } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    expect(await jobCount()).toBe(before);
  });
});
