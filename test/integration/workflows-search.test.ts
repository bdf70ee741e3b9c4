import { createToken } from '../../db/tokens';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest, type TestDatabase } from './harness';

/**
 * The run list's search, status filter and titles over the real API and PostgreSQL: GET /v1/workflows?q=&status=
 * (paged with the same cursor as the plain list) and PATCH /v1/workflows/:id. Rows are inserted directly, each
 * test under an org of its own, so tests do not see each other's rows. No worker runs.
 */

let infra: Infrastructure;
let db: TestDatabase;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  ({ db } = infra);
  keel = await startKeel(infra);
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

interface Answer {
  status: number;
  body: unknown;
}

interface Row {
  workflow_id: string;
  title: string;
  title_set: boolean;
  status: string;
  updated_at: string;
  created_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  cost_usd: number;
}

interface Page {
  workflows: Row[];
  next_cursor: string | null;
}

async function call(path: string, token: string, init: { method?: string; body?: unknown } = {}): Promise<Answer> {
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: await response.json() };
}

async function page(query: Record<string, string>, token: string): Promise<Page> {
  const answer = await call(`/v1/workflows?${new URLSearchParams(query).toString()}`, token);
  expect(answer.status).toBe(200);
  return answer.body as Page;
}

/** Every page of a query, following next_cursor. */
async function all(query: Record<string, string>, token: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  do {
    const next: Page = await page({ ...query, ...(cursor ? { cursor } : {}) }, token);
    rows.push(...next.workflows);
    cursor = next.next_cursor;
  } while (cursor);
  return rows;
}

function expectError(answer: Answer, status: number, code: string): void {
  expect(answer).toEqual({ status, body: { error: { code, message: expect.any(String) as string } } });
}

let nextId = 9_100_000;
let orgs = 0;

/** A fresh org with a member token; `seed` adds its workflows. */
async function org(): Promise<{ orgId: string; token: string; user: string }> {
  orgs += 1;
  const orgId = `org-search-${orgs}-${Date.now()}`;
  const user = `user-${orgId}`;
  const { token } = await createToken(db.pool, { userId: user, orgId, isAdmin: false });
  return { orgId, token, user };
}

interface Seed {
  prompts: string[];
  /** The latest job's status; none for a workflow without a job. */
  job?: string;
  createdBy?: string;
  costUsd?: number;
}

/** One workflow per seed, newest last (so the list shows them in reverse), with its prompts and at most one job. */
async function seed(orgId: string, createdBy: string, seeds: Seed[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, s] of seeds.entries()) {
    nextId += 1;
    const id = `wf-${nextId}`;
    ids.push(id);
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString();
    await db.pool.query(
      `INSERT INTO workflows (workflow_id, org_id, created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)`,
      [id, orgId, s.createdBy ?? createdBy, at],
    );
    for (const [n, prompt] of s.prompts.entries()) {
      await db.pool.query(
        `INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5::timestamptz + $6 * interval '1 millisecond')`,
        [`pt-${nextId}-${n}`, id, prompt, createdBy, at, n],
      );
    }
    if (s.job) {
      await db.pool.query(
        `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue, cost_usd,
                               started_at, finished_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'search-test', $7, $8::timestamptz,
                 CASE WHEN $4 IN ('completed', 'failed', 'cancelled') THEN $8::timestamptz + interval '90 seconds' END)`,
        [`job-${id}`, id, `pt-${nextId}-0`, s.job, createdBy, orgId, s.costUsd ?? 0, at],
      );
    }
  }
  return ids;
}

describe('GET /v1/workflows search and status', () => {
  it('finds a literal, case-insensitive substring of the title or of any prompt, % and _ included', async () => {
    const { orgId, token, user } = await org();
    const [percent, percentLike, underscore, underscoreLike, later, backslash] = await seed(orgId, user, [
      { prompts: ['Ship 100% of the docs'] },
      { prompts: ['Ship 1000 of the docs'] },
      { prompts: ['Rename file_a.md'] },
      { prompts: ['Rename fileXa.md'] },
      { prompts: ['First prompt', 'Then add the PRICING page'] },
      { prompts: ['Path C:\\temp\\x'] },
    ]);
    const ids = async (q: string) => (await all({ q }, token)).map((r) => r.workflow_id).sort();

    expect(await ids('100%')).toEqual([percent]);
    expect(await ids('%')).toEqual([percent]);
    expect(await ids('file_a')).toEqual([underscore]);
    expect(await ids('_')).toEqual([underscore]);
    expect(await ids('\\temp')).toEqual([backslash]);
    expect(await ids('pricing')).toEqual([later]);
    expect(await ids('SHIP')).toEqual([percent, percentLike].sort());
    expect(await ids('filexa')).toEqual([underscoreLike]);
    // Blank is no search at all.
    expect((await all({ q: '   ' }, token)).length).toBe(6);
  });

  it('filters by one or several states, a workflow without a job or waiting on a person being pending', async () => {
    const { orgId, token, user } = await org();
    const [none, running, paused, completed, failed, cancelled, queued] = await seed(orgId, user, [
      { prompts: ['a'] },
      { prompts: ['b'], job: 'running' },
      { prompts: ['c'], job: 'paused' },
      { prompts: ['d'], job: 'completed', costUsd: 0.25 },
      { prompts: ['e'], job: 'failed' },
      { prompts: ['f'], job: 'cancelled' },
      { prompts: ['g'], job: 'queued' },
    ]);
    const ids = async (status: string) => (await all({ status }, token)).map((r) => r.workflow_id).sort();
    expect(await ids('pending')).toEqual([none, paused].sort());
    // `paused` is the job page's word for a job waiting on a person: the part of pending that has a job.
    expect(await ids('paused')).toEqual([paused]);
    expect((await all({ status: 'paused' }, token)).map((r) => r.status)).toEqual(['pending']);
    expect(await ids('running')).toEqual([running]);
    expect(await ids('completed,failed')).toEqual([completed, failed].sort());
    expect(await ids('cancelled')).toEqual([cancelled]);
    expect(await ids('queued')).toEqual([queued]);

    const [done] = await all({ status: 'completed' }, token);
    expect(done).toMatchObject({ title: 'd', title_set: false, status: 'completed', cost_usd: 0.25 });
    expect(Date.parse(done!.finished_at!) - Date.parse(done!.started_at!)).toBe(90_000);
  });

  it('pages a search with the cursor: every match once, in list order, combined with a status', async () => {
    const { orgId, token, user } = await org();
    const seeds: Seed[] = Array.from({ length: 45 }, (_, i) => ({
      prompts: [i % 3 === 0 ? `Needle report ${i}` : `Haystack ${i}`],
      job: i % 2 === 0 ? 'completed' : 'running',
    }));
    const ids = await seed(orgId, user, seeds);
    const matching = ids.filter((_, i) => i % 3 === 0).reverse();
    const first = await page({ q: 'needle', limit: '4' }, token);
    expect(first.workflows.map((r) => r.workflow_id)).toEqual(matching.slice(0, 4));
    expect(first.next_cursor).not.toBeNull();
    expect((await all({ q: 'needle', limit: '4' }, token)).map((r) => r.workflow_id)).toEqual(matching);
    const both = await all({ q: 'needle', status: 'running', limit: '2' }, token);
    expect(both.map((r) => r.workflow_id)).toEqual(ids.filter((_, i) => i % 3 === 0 && i % 2 === 1).reverse());
  });

  it('refuses a search or a status it cannot serve with 400 invalid_request', async () => {
    const { token } = await org();
    expectError(await call(`/v1/workflows?q=${'x'.repeat(201)}`, token), 400, 'invalid_request');
    expectError(await call('/v1/workflows?status=sleeping', token), 400, 'invalid_request');
    expectError(await call('/v1/workflows?status=running,', token), 400, 'invalid_request');
    expectError(await call('/v1/workflows?status=', token), 400, 'invalid_request');
  });
});

describe('PATCH /v1/workflows/:id', () => {
  it('sets a title the list shows and searches, without moving the row, and null restores the prompt line', async () => {
    const { orgId, token, user } = await org();
    const [id] = await seed(orgId, user, [{ prompts: ['  \n  Write the launch plan\nwith details'] }]);
    const before = (await all({}, token))[0]!;
    expect(before).toMatchObject({ workflow_id: id, title: 'Write the launch plan', title_set: false });

    const set = await call(`/v1/workflows/${id}`, token, { method: 'PATCH', body: { title: '  Launch plan v2 ' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ workflow_id: id, title: 'Launch plan v2', title_set: true });
    const after = (await all({}, token))[0]!;
    expect(after).toMatchObject({ title: 'Launch plan v2', updated_at: before.updated_at });
    expect((await all({ q: 'plan V2' }, token)).map((r) => r.workflow_id)).toEqual([id]);

    const cleared = await call(`/v1/workflows/${id}`, token, { method: 'PATCH', body: { title: null } });
    expect(cleared.body).toMatchObject({ title: 'Write the launch plan', title_set: false });
  });

  it('refuses a blank, long, multi-line or missing title with 400, another member with 403, another org with 404', async () => {
    const { orgId, token, user } = await org();
    const [id] = await seed(orgId, user, [{ prompts: ['Mine'] }]);
    const put = (body: unknown, as = token) => call(`/v1/workflows/${id}`, as, { method: 'PATCH', body });
    expectError(await put({ title: '   ' }), 400, 'invalid_request');
    expectError(await put({ title: 'x'.repeat(201) }), 400, 'invalid_request');
    expectError(await put({ title: 'two\nlines' }), 400, 'invalid_request');
    expectError(await put({}), 400, 'invalid_request');
    expectError(await put({ title: 42 }), 400, 'invalid_request');
    expectError(await put({ title: 'Fine', hidden: true }), 400, 'invalid_request');
    expect((await put({ title: 'x'.repeat(200) })).status).toBe(200);

    const colleague = (await createToken(db.pool, { userId: `other-${user}`, orgId, isAdmin: false })).token;
    expectError(await put({ title: 'Theirs now' }, colleague), 403, 'not_owner');
    const stranger = await org();
    expectError(await put({ title: 'Theirs now' }, stranger.token), 404, 'not_found');
    const admin = (await createToken(db.pool, { userId: 'admin-search', orgId: 'org-admin', isAdmin: true })).token;
    expect((await put({ title: 'Renamed by an admin' }, admin)).status).toBe(200);
  });
});

describe('the scenario a workflow names', () => {
  it('is the one its first job runs: `#build` records product, a plain prompt build, a named scenario itself', async () => {
    const create = async (body: Record<string, unknown>) => {
      const answer = await call('/v1/workflows', keel.token, { method: 'POST', body });
      expect(answer.status).toBe(201);
      return (answer.body as { workflow: { scenario: string; title: string } }).workflow;
    };
    expect(await create({ prompt: 'A landing page for a bakery #build' })).toMatchObject({
      scenario: 'product',
      title: 'A landing page for a bakery #build',
    });
    expect((await create({ prompt: 'Write hello.md' })).scenario).toBe('build');
    expect((await create({ prompt: 'Review it #build', scenario: 'review' })).scenario).toBe('review');
  });
});
