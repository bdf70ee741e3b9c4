import fc from 'fast-check';
import { queueWorkflows } from '../../api/workflow-directory';
import { createToken } from '../../db/tokens';
import { encodeCursor, listWorkflowsQuery, type ListWorkflowsOptions } from '../../db/workflow-list';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest, type TestDatabase } from './harness';

/**
 * The read side of workflows: GET /v1/workflows (keyset pages in the spec's order), GET /v1/workflows/:id and
 * hide / unhide, over the real API and PostgreSQL. Rows are mostly inserted directly, each group under an org of its
 * own, so groups do not see each other and the property test can delete its rows between runs. No worker runs.
 */

let infra: Infrastructure;
let db: TestDatabase;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  ({ db } = infra);
  keel = await startKeel(infra);
  await db.pool.query("INSERT INTO projects (slug, name) VALUES ('alpha', 'alpha'), ('beta', 'beta')");
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

interface ApiResponse {
  status: number;
  body: unknown;
}

async function call(path: string, options: { method?: string; token?: string } = {}): Promise<ApiResponse> {
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method: options.method ?? 'GET',
    headers: { authorization: `Bearer ${options.token ?? keel.token}` },
  });
  return { status: response.status, body: await response.json() };
}

interface WorkflowOut {
  workflow_id: string;
  project_slug: string | null;
  created_by: string;
  updated_at: string;
  hidden: boolean;
  status: string;
  latest_job_id: string | null;
  scenario: string;
}

interface ListBody {
  workflows: WorkflowOut[];
  next_cursor: string | null;
}

async function list(query: string, token: string): Promise<ListBody> {
  const response = await call(`/v1/workflows${query}`, { token });
  expect(response.status).toBe(200);
  return response.body as ListBody;
}

function expectError(response: ApiResponse, status: number, code: string): void {
  expect(response).toEqual({ status, body: { error: { code, message: expect.any(String) as string } } });
}

async function tokenFor(orgId: string, isAdmin = false): Promise<string> {
  return (await createToken(db.pool, { userId: `user-${orgId}`, orgId, isAdmin })).token;
}

interface SeedRow {
  id: number;
  orgId: string;
  project: string | null;
  hidden: boolean;
  /** RFC 3339 with microseconds, so string order is time order. */
  updatedAt: string;
}

async function seed(rows: SeedRow[]): Promise<void> {
  if (rows.length === 0) return;
  // A workflow's project is its org's (slugs are per org, a foreign key): the projects exist first.
  await db.pool.query(
    `INSERT INTO projects (slug, name, org_id)
     SELECT DISTINCT project, project, org FROM unnest($1::text[], $2::text[]) AS t(org, project)
      WHERE project IS NOT NULL
     ON CONFLICT DO NOTHING`,
    [rows.map((r) => r.orgId), rows.map((r) => r.project)],
  );
  await db.pool.query(
    `INSERT INTO workflows (workflow_id, org_id, project_slug, hidden, updated_at)
     SELECT 'wf-' || id, org, project, hidden, updated_at::timestamptz
       FROM unnest($1::int[], $2::text[], $3::text[], $4::boolean[], $5::text[]) AS t(id, org, project, hidden, updated_at)`,
    [
      rows.map((r) => r.id),
      rows.map((r) => r.orgId),
      rows.map((r) => r.project),
      rows.map((r) => r.hidden),
      rows.map((r) => r.updatedAt),
    ],
  );
}

/** The spec's order: updated_at descending, then workflow_id descending (byte-wise). */
function specOrder(a: SeedRow, b: SeedRow): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  const [ia, ib] = [`wf-${a.id}`, `wf-${b.id}`];
  return ia < ib ? 1 : ia > ib ? -1 : 0;
}

/** Follows next_cursor from the first page until it is null; returns every workflow id in the order served. */
async function pageThrough(query: string, limit: number, token: string): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 200; page++) {
    const params = new URLSearchParams(query);
    params.set('limit', String(limit));
    if (cursor !== null) params.set('cursor', cursor);
    const body = await list(`?${params.toString()}`, token);
    expect(body.workflows.length).toBeLessThanOrEqual(limit);
    seen.push(...body.workflows.map((w) => w.workflow_id));
    if (body.next_cursor === null) {
      expect(body.workflows.length).toBeLessThan(limit);
      return seen;
    }
    expect(body.workflows.length).toBe(limit);
    cursor = body.next_cursor;
  }
  throw new Error('next_cursor never became null');
}

describe('GET /v1/workflows pagination (property)', () => {
  const org = 'org-prop';
  const otherOrg = 'org-prop-other';
  // Few distinct instants, some in the same millisecond, so ties on updated_at are the rule, not the exception.
  const instants = [
    '2026-03-01T10:00:00.000001Z',
    '2026-03-01T10:00:00.000002Z',
    '2026-03-01T10:00:00.000999Z',
    '2026-03-01T10:00:00.500000Z',
    '2026-03-02T00:00:00.000000Z',
  ];

  test('every visible workflow appears exactly once, in updated_at desc, workflow_id desc order', async () => {
    const token = await tokenFor(org);
    const rowArb = fc.record({
      orgId: fc.constantFrom(org, org, org, otherOrg),
      project: fc.constantFrom('alpha', 'beta', null),
      hidden: fc.boolean(),
      updatedAt: fc.constantFrom(...instants),
    });
    const scenario = fc.record({
      ids: fc.uniqueArray(fc.integer({ min: 1, max: 100_000 }), { maxLength: 60 }),
      shapes: fc.array(rowArb, { minLength: 60, maxLength: 60 }),
      limit: fc.integer({ min: 1, max: 15 }),
      project: fc.constantFrom<string | undefined>(undefined, 'alpha'),
      includeHidden: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ ids, shapes, limit, project, includeHidden }) => {
        await db.pool.query('DELETE FROM workflows WHERE org_id IN ($1, $2)', [org, otherOrg]);
        const rows: SeedRow[] = ids.map((id, i) => ({ id, ...shapes[i]! }));
        await seed(rows);
        const query = new URLSearchParams();
        if (project !== undefined) query.set('project_slug', project);
        if (includeHidden) query.set('include_hidden', 'true');
        const expected = rows
          .filter(
            (r) => r.orgId === org && (includeHidden || !r.hidden) && (project === undefined || r.project === project),
          )
          .sort(specOrder)
          .map((r) => `wf-${r.id}`);
        expect(await pageThrough(query.toString(), limit, token)).toEqual(expected);
      }),
      { numRuns: 15 },
    );
    await db.pool.query('DELETE FROM workflows WHERE org_id IN ($1, $2)', [org, otherOrg]);
  });
});

describe('cursors', () => {
  const org = 'org-cursor';
  let token: string;

  beforeAll(async () => {
    token = await tokenFor(org);
    await seed(
      [1, 2, 3].map((n) => ({
        id: 700_000 + n,
        orgId: org,
        project: null,
        hidden: false,
        updatedAt: `2026-04-01T00:00:00.00000${n}Z`,
      })),
    );
  });

  test('next_cursor is the base64url (no padding) of the last row updated_at|workflow_id, and resumes after it', async () => {
    const first = await list('?limit=2', token);
    expect(first.workflows.map((w) => [w.workflow_id, w.updated_at])).toEqual([
      ['wf-700003', '2026-04-01T00:00:00.000003Z'],
      ['wf-700002', '2026-04-01T00:00:00.000002Z'],
    ]);
    expect(first.next_cursor).toBe(encodeCursor('2026-04-01T00:00:00.000002Z', 'wf-700002'));
    expect(first.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(first.next_cursor!, 'base64url').toString()).toBe('2026-04-01T00:00:00.000002Z|wf-700002');
    const second = await list(`?limit=2&cursor=${first.next_cursor}`, token);
    expect(second).toEqual({ workflows: [expect.objectContaining({ workflow_id: 'wf-700001' })], next_cursor: null });
  });

  test.each([
    ['not base64url', 'a+b/c=='],
    ['padded', `${encodeCursor('2026-04-01T00:00:00.000002Z', 'wf-1')}=`],
    ['no separator', Buffer.from('2026-04-01T00:00:00Z wf-1').toString('base64url')],
    ['two separators', Buffer.from('2026-04-01T00:00:00Z|wf-1|x').toString('base64url')],
    ['bad time', encodeCursor('2026-02-30T00:00:00Z', 'wf-1')],
    ['not a time', encodeCursor('yesterday', 'wf-1')],
    ['bad workflow id', encodeCursor('2026-04-01T00:00:00Z', 'pt-1')],
    ['empty workflow id', encodeCursor('2026-04-01T00:00:00Z', '')],
  ])('a malformed cursor (%s) is 400 invalid_cursor', async (_name, cursor) => {
    expectError(await call(`/v1/workflows?cursor=${encodeURIComponent(cursor)}`, { token }), 400, 'invalid_cursor');
  });
});

describe('limit', () => {
  const org = 'org-limit';
  let token: string;

  beforeAll(async () => {
    token = await tokenFor(org);
    await seed(
      Array.from({ length: 130 }, (_, i) => ({
        id: 800_000 + i,
        orgId: org,
        project: null,
        hidden: false,
        updatedAt: '2026-05-01T00:00:00.000000Z',
      })),
    );
  });

  test('no parameters: the first 20 and a cursor (calls without query parameters stay valid)', async () => {
    const body = await list('', token);
    expect(body.workflows).toHaveLength(20);
    expect(body.next_cursor).toEqual(expect.any(String));
  });

  test('0 is clamped to 1 and 1000 to 100', async () => {
    expect((await list('?limit=0', token)).workflows).toHaveLength(1);
    expect((await list('?limit=-5', token)).workflows).toHaveLength(1);
    expect((await list('?limit=1000', token)).workflows).toHaveLength(100);
  });

  test.each(['abc', '1.5', ''])('a non-integer limit (%j) is 400', async (limit) => {
    expectError(await call(`/v1/workflows?limit=${limit}`, { token }), 400, 'invalid_request');
  });
});

describe('filters, hide / unhide and org scoping', () => {
  const org = 'org-hide';
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    token = await tokenFor(org);
    otherToken = await tokenFor('org-hide-other');
    await seed([
      { id: 900_001, orgId: org, project: 'alpha', hidden: false, updatedAt: '2026-06-01T00:00:00.000001Z' },
      { id: 900_002, orgId: org, project: 'beta', hidden: false, updatedAt: '2026-06-01T00:00:00.000002Z' },
      { id: 900_003, orgId: org, project: 'alpha', hidden: true, updatedAt: '2026-06-01T00:00:00.000003Z' },
    ]);
  });

  const ids = (body: ListBody) => body.workflows.map((w) => w.workflow_id);

  test('project_slug filters; hidden rows only with include_hidden=true', async () => {
    expect(ids(await list('', token))).toEqual(['wf-900002', 'wf-900001']);
    expect(ids(await list('?include_hidden=false', token))).toEqual(['wf-900002', 'wf-900001']);
    expect(ids(await list('?include_hidden=true', token))).toEqual(['wf-900003', 'wf-900002', 'wf-900001']);
    expect(ids(await list('?project_slug=alpha', token))).toEqual(['wf-900001']);
    expect(ids(await list('?project_slug=alpha&include_hidden=true', token))).toEqual(['wf-900003', 'wf-900001']);
  });

  test('hide and unhide are idempotent, keep updated_at and leave the workflow resolvable', async () => {
    const before = (await call('/v1/workflows/wf-900001', { token })).body as WorkflowOut;
    expect(before).toEqual({
      workflow_id: 'wf-900001',
      project_slug: 'alpha',
      created_by: 'user',
      updated_at: '2026-06-01T00:00:00.000001Z',
      hidden: false,
      status: 'pending',
      latest_job_id: null,
      scenario: 'build',
      // No prompt was seeded, so the id stands for the title.
      title: 'wf-900001',
      title_set: false,
      created_at: expect.any(String) as string,
      started_at: null,
      finished_at: null,
      cost_usd: 0,
      follow_up_policy: null,
    });
    for (let i = 0; i < 2; i++) {
      expect(await call('/v1/workflows/wf-900001/hide', { method: 'POST', token })).toEqual({
        status: 200,
        body: { workflow_id: 'wf-900001', hidden: true },
      });
    }
    expect(await call('/v1/workflows/wf-900001', { token })).toEqual({
      status: 200,
      body: { ...before, hidden: true },
    });
    expect(ids(await list('', token))).toEqual(['wf-900002']);
    for (let i = 0; i < 2; i++) {
      expect(await call('/v1/workflows/wf-900001/unhide', { method: 'POST', token })).toEqual({
        status: 200,
        body: { workflow_id: 'wf-900001', hidden: false },
      });
    }
    expect(await call('/v1/workflows/wf-900001', { token })).toEqual({ status: 200, body: before });
    expect(ids(await list('', token))).toEqual(['wf-900002', 'wf-900001']);
  });

  test("another org's token gets 404 and an empty list; an admin sees every org", async () => {
    for (const path of ['/v1/workflows/wf-900003', '/v1/workflows/wf-900003/hide', '/v1/workflows/wf-900003/unhide']) {
      const method = path.endsWith('hide') ? 'POST' : 'GET';
      expectError(await call(path, { method, token: otherToken }), 404, 'not_found');
    }
    expect(await list('?include_hidden=true', otherToken)).toEqual({ workflows: [], next_cursor: null });
    expectError(await call('/v1/workflows/wf-999999999', { token }), 404, 'not_found');
    const admin = await tokenFor('org-admin-elsewhere', true);
    expect((await call('/v1/workflows/wf-900003', { token: admin })).status).toBe(200);
    expect(ids(await list('?include_hidden=true&limit=100', admin))).toEqual(
      expect.arrayContaining(['wf-900003', 'wf-900002', 'wf-900001']),
    );
  });

  test('a direct lookup the database does not know falls back to the queue store (the list does not)', async () => {
    const devRow = {
      workflow_id: 'wf-930001',
      project_slug: null,
      created_by: 'dev',
      org_id: 'org-fallback',
      hidden: false,
      scenario: 'build',
      updated_at: '2026-06-02T00:00:00.000001Z',
      latest_job_id: null,
      status: null,
    };
    await queueWorkflows(infra.queue).put(devRow);
    const fallbackToken = await tokenFor('org-fallback');
    expect(await call('/v1/workflows/wf-930001', { token: fallbackToken })).toEqual({
      status: 200,
      body: {
        ...devRow,
        org_id: undefined,
        status: 'pending',
        title: 'wf-930001',
        title_set: false,
        created_at: null,
        started_at: null,
        finished_at: null,
        cost_usd: 0,
        follow_up_policy: null,
      },
    });
    expect((await call('/v1/workflows/wf-930001/hide', { method: 'POST', token: fallbackToken })).status).toBe(200);
    expect(((await call('/v1/workflows/wf-930001', { token: fallbackToken })).body as WorkflowOut).hidden).toBe(true);
    expect(await list('?include_hidden=true', fallbackToken)).toEqual({ workflows: [], next_cursor: null });
    expectError(await call('/v1/workflows/wf-930001', { token: otherToken }), 404, 'not_found');
  });

  test("status is the latest job's status, for a workflow created through POST /v1/chat", async () => {
    const chat = await fetch(`${keel.baseUrl}/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'list me' }),
    });
    expect(chat.status).toBe(202);
    const { workflow_id: workflowId } = (await chat.json()) as { workflow_id: string };
    expect(await call(`/v1/workflows/${workflowId}`, { token })).toEqual({
      status: 200,
      body: expect.objectContaining({
        workflow_id: workflowId,
        project_slug: null,
        status: 'queued',
        hidden: false,
      }) as unknown,
    });
    expect((await list('', token)).workflows[0]).toEqual(
      expect.objectContaining({ workflow_id: workflowId, status: 'queued' }),
    );
  });
});

describe('query plans', () => {
  /** EXPLAIN of exactly the SQL the API runs; the planner picks the index on its own (no enable_* switches). */
  async function plan(options: ListWorkflowsOptions): Promise<string> {
    const { text, values } = listWorkflowsQuery(options);
    const { rows } = await db.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  beforeAll(async () => {
    // 20,000 rows over 20 orgs and 5 projects (1,000 rows per org, 200 per org and project), three rows per second:
    // enough that a 20-row page is cheaper read in index order than fetched and sorted, and an org's rows too few to
    // find by filtering the all-orgs index. The planner's choice is its own.
    await db.pool.query(
      `INSERT INTO projects (slug, name, org_id)
       SELECT 'p' || p, 'p' || p, 'org-plan-' || o FROM generate_series(0, 4) AS p, generate_series(0, 19) AS o
       ON CONFLICT DO NOTHING`,
    );
    await db.pool.query(
      `INSERT INTO workflows (workflow_id, org_id, project_slug, hidden, updated_at)
       SELECT 'wf-' || (2000000 + n), 'org-plan-' || (n % 20), 'p' || ((n / 20) % 5), n % 7 = 0,
              timestamptz '2026-07-01' + (n / 3) * interval '1 second'
         FROM generate_series(1, 20000) AS n`,
    );
    await db.pool.query('ANALYZE workflows');
  });

  // Mid-range: about half the rows sort after it.
  const after = { updatedAt: '2026-07-01T01:00:00.000000Z', workflowId: 'wf-2010800' };

  test.each<[string, ListWorkflowsOptions, string]>([
    ['an org', { orgId: 'org-plan-3', includeHidden: false, limit: 20 }, 'workflows_list_org_idx'],
    [
      'an org, after a cursor',
      { orgId: 'org-plan-3', includeHidden: false, limit: 20, after },
      'workflows_list_org_idx',
    ],
    [
      'an org with hidden rows',
      { orgId: 'org-plan-3', includeHidden: true, limit: 20, after },
      'workflows_list_org_idx',
    ],
    [
      'an org and a project',
      { orgId: 'org-plan-3', projectSlug: 'p3', includeHidden: false, limit: 20 },
      'workflows_list_org_project_idx',
    ],
    [
      'an org and a project, after a cursor',
      { orgId: 'org-plan-3', projectSlug: 'p3', includeHidden: false, limit: 20, after },
      'workflows_list_org_project_idx',
    ],
    ['an admin, after a cursor', { orgId: null, includeHidden: false, limit: 20, after }, 'workflows_list_all_idx'],
  ])('the list for %s is an index scan on its index', async (_name, options, index) => {
    const text = await plan(options);
    expect(text).toMatch(new RegExp(`Index (Only )?Scan using ${index} on workflows`));
    expect(text).not.toMatch(/Seq Scan on workflows/);
    // The only sort allowed is the one-row lookup of each workflow's latest job.
    expect(text).not.toMatch(/Sort Key: w\./);
  });
});
