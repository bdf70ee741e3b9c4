import { streamJobEvents } from '../../cli/event-stream';
import { createToken } from '../../db/tokens';
import type { EventEnvelope } from '../../events/envelope';
import { uniqueSuffix } from './env';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * Work types and items (plan, replan), initiatives with progress from their jobs, command intents without a job,
 * stats over stored rows, and the retired localinf paths, on the real stack with the offline demo model.
 */

let infra: Infrastructure;
let keel: KeelUnderTest;
const suffix = uniqueSuffix();

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  await keel.startWorker();
}, 120_000);

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
}

async function call(
  path: string,
  options: { method?: string; json?: unknown; token?: string } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? keel.token}` };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function follow(jobId: string): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  return events;
}

const count = async (table: string) =>
  Number((await infra.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

async function tokenOf(org: string, isAdmin = false) {
  return (await createToken(infra.db.pool, { userId: `u-${org}-${suffix}`, orgId: `${org}-${suffix}`, isAdmin })).token;
}

interface Plan {
  version: number;
  steps: Array<{
    position: number;
    level: string;
    title: string;
    capabilities: string[];
    estimated_cost_usd: { free: number; cheap: number; frontier: number };
  }>;
  capabilities: Array<{ name: string; status: string }>;
  estimated_cost_usd: { free: number; cheap: number; frontier: number };
  changes: string[];
}

test('work types list their scenario and capabilities, page by page', async () => {
  const first = await call('/v1/work-types?limit=4');
  const names = (first.body.work_types as Array<{ name: string }>).map((t) => t.name);
  expect(names).toEqual(['bug-fix', 'docs', 'feature', 'library']);
  const second = await call(`/v1/work-types?limit=4&cursor=${first.body.next_cursor as string}`);
  expect(
    (second.body.work_types as Array<{ name: string; capabilities: string[] }>).map((t) => [t.name, t.capabilities]),
  ).toEqual([
    ['migration', []],
    ['product-build', ['static-site']],
  ]);
  expect(second.body.next_cursor).toBeNull();
});

test('a work item gets a plan, and a replan adds the change as a step and a new version', async () => {
  const created = await call('/v1/work-items', {
    method: 'POST',
    json: { slug: 'landing', type: 'product-build', title: 'Landing page', description: 'one page for the bakery' },
  });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ slug: 'landing', type: 'product-build', state: 'planned', plan_version: 1 });

  const planned = await call('/v1/work-items/landing/plan');
  const plan = planned.body.plan as Plan;
  expect(plan.steps.map((s) => s.level)).toEqual([
    'L1.team_lead',
    'L2.architect',
    'L4.executor',
    'L3.verifier',
    'L2.reviewer',
  ]);
  expect(plan.steps.find((s) => s.level === 'L4.executor')!.capabilities).toEqual(['static-site']);
  expect(plan.capabilities).toEqual([{ name: 'static-site', status: 'available' }]);
  const stepSum = plan.steps.reduce((sum, s) => sum + s.estimated_cost_usd.frontier, 0);
  expect(plan.estimated_cost_usd.frontier).toBeCloseTo(stepSum, 6);
  expect(plan.estimated_cost_usd.free).toBe(0);
  expect(plan.estimated_cost_usd.frontier).toBeGreaterThan(plan.estimated_cost_usd.cheap);

  const replanned = await call('/v1/work-items/landing/replan', {
    method: 'POST',
    json: { reason: 'the bakery wants a menu section', version: 1 },
  });
  expect(replanned.status).toBe(200);
  const next = replanned.body.plan as Plan;
  expect(replanned.body.plan_version).toBe(2);
  expect(next.changes).toEqual(['the bakery wants a menu section']);
  expect(next.steps.map((s) => s.title)).toContain('adjust the task: the bakery wants a menu section');
  expect(next.steps).toHaveLength(plan.steps.length + 1);
  expect(next.estimated_cost_usd.frontier).toBeGreaterThan(plan.estimated_cost_usd.frontier);
  // The plan route serves the stored new version.
  expect(((await call('/v1/work-items/landing/plan')).body.plan as Plan).changes).toEqual(next.changes);

  // A replan against the old version is refused and stores nothing.
  const stale = await call('/v1/work-items/landing/replan', { method: 'POST', json: { reason: 'late', version: 1 } });
  expect(stale.body).toEqual({ error: { code: 'version_conflict', message: expect.any(String) as string } });
  expect((await call('/v1/work-items/landing')).body.plan_version).toBe(2);

  const list = await call('/v1/work-items?state=planned');
  expect((list.body.work_items as Array<{ slug: string }>).map((w) => w.slug)).toContain('landing');
});

test('an initiative rolls up the progress of its jobs once they finish', async () => {
  const jobs: Array<{ job_id: string; workflow_id: string }> = [];
  for (const prompt of ['Write menu.md that lists breads', 'Write hours.md with the opening hours']) {
    const submitted = await call('/v1/chat', { method: 'POST', json: { prompt } });
    expect(submitted.status).toBe(202);
    jobs.push(submitted.body as { job_id: string; workflow_id: string });
  }
  const created = await call('/v1/initiatives', {
    method: 'POST',
    json: { title: 'Bakery launch', goal: 'menu and hours online', workflow_ids: jobs.map((j) => j.workflow_id) },
  });
  expect(created.status).toBe(201);
  const id = created.body.initiative_id as string;
  for (const job of jobs) expect((await follow(job.job_id)).at(-1)?.kind).toBe('final');

  const after = await call(`/v1/initiatives/${id}`);
  expect(after.body.progress).toMatchObject({
    workflows: 2,
    jobs: 2,
    jobs_by_status: { completed: 2 },
    jobs_finished_ratio: 1,
  });
  const listed = await call('/v1/initiatives');
  expect((listed.body.initiatives as Array<{ initiative_id: string }>).map((i) => i.initiative_id)).toContain(id);

  // Another org's initiative does not exist for it, nor can it join its workflows to one.
  const other = await tokenOf('org-other');
  expect((await call(`/v1/initiatives/${id}`, { token: other })).status).toBe(404);
  expect((await call('/v1/initiatives', { token: other })).body.initiatives).toEqual([]);
  const before = await count('initiatives');
  const refused = await call('/v1/initiatives', {
    method: 'POST',
    json: { title: 'steal', workflow_ids: [jobs[0]!.workflow_id] },
    token: other,
  });
  expect(refused).toEqual({
    status: 404,
    body: { error: { code: 'not_found', message: expect.any(String) as string } },
  });
  expect(await count('initiatives')).toBe(before);
}, 120_000);

test('intents run without a job: commands answered, rules and facts kept per workflow, LLM work sent to a job', async () => {
  const jobsBefore = await count('job_runs');
  const catalog = await call('/v1/command/intents');
  const intents = catalog.body.intents as Array<{ name: string; needs_job: boolean; examples: string[] }>;
  expect(intents.map((i) => i.name)).toEqual(['/echo', '/help', 'fact:', 'llm', 'rule:']);
  expect(intents.every((i) => i.examples.length > 0)).toBe(true);

  const echo = await call('/v1/command/intents', { method: 'POST', json: { text: '/echo hello team' } });
  expect(echo.body).toEqual({ intent: 'command', executed: true, name: 'echo', answer: 'hello team' });
  const help = await call('/v1/command/intents', { method: 'POST', json: { text: '/help' } });
  expect(help.body.answer).toMatch(/rule: <text>/);

  const workflow = await call('/v1/workflows', { method: 'POST', json: { prompt: 'Write rules.md' } });
  const workflowId = (workflow.body.workflow as { workflow_id: string }).workflow_id;
  await follow(workflow.body.job_id as string);
  const jobsWithWorkflow = await count('job_runs');
  expect(jobsWithWorkflow).toBe(jobsBefore + 1);

  const rule = await call('/v1/command/intents', {
    method: 'POST',
    json: { text: 'rule: every change needs a test', workflow_id: workflowId },
  });
  expect(rule.body).toMatchObject({
    intent: 'rule',
    executed: true,
    note: { workflow_id: workflowId, text: 'every change needs a test' },
  });
  await call('/v1/command/intents', {
    method: 'POST',
    json: { text: 'fact: ovens start at 4am', workflow_id: workflowId },
  });
  const notes = await call(`/v1/command/notes?workflow_id=${workflowId}&limit=1`);
  expect((notes.body.notes as Array<{ kind: string }>).map((n) => n.kind)).toEqual(['rule']);
  const rest = await call(
    `/v1/command/notes?workflow_id=${workflowId}&limit=1&cursor=${notes.body.next_cursor as string}`,
  );
  expect((rest.body.notes as Array<{ kind: string; text: string }>).map((n) => [n.kind, n.text])).toEqual([
    ['fact', 'ovens start at 4am'],
  ]);

  const llm = await call('/v1/command/intents', { method: 'POST', json: { text: 'Write a poem about bread' } });
  expect(llm.body).toMatchObject({ intent: 'llm', executed: false, needs_job: true });
  // No intent started a job.
  expect(await count('job_runs')).toBe(jobsWithWorkflow);

  const other = await tokenOf('org-other');
  const notesBefore = await count('workflow_notes');
  expect(
    (
      await call('/v1/command/intents', {
        method: 'POST',
        json: { text: 'fact: x', workflow_id: workflowId },
        token: other,
      })
    ).status,
  ).toBe(404);
  expect((await call(`/v1/command/notes?workflow_id=${workflowId}`, { token: other })).status).toBe(404);
  expect(await count('workflow_notes')).toBe(notesBefore);
}, 120_000);

test('stats over seeded rows match the same counts taken directly in SQL', async () => {
  const org = `org-stats-${suffix}`;
  const pool = infra.db.pool;
  await pool.query(
    `INSERT INTO projects (slug, name, org_id) VALUES ('stats-a-${suffix}', 'a', $1), ('stats-b-${suffix}', 'b', $1)`,
    [org],
  );
  const statuses = ['completed', 'completed', 'failed', 'cancelled', 'running', 'completed'];
  for (let i = 0; i < 60; i += 1) {
    const wf = `wf-9${suffix.replace(/\D/g, '').slice(0, 6)}${i}`;
    const project = i % 3 === 0 ? null : `stats-${i % 2 ? 'a' : 'b'}-${suffix}`;
    const job = `job-stats-${suffix}-${i}`;
    await pool.query('INSERT INTO workflows (workflow_id, project_slug, org_id) VALUES ($1, $2, $3)', [
      wf,
      project,
      org,
    ]);
    await pool.query(
      `INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ($1, $2, 'p', 'u')`,
      [`pt-s${suffix}-${i}`, wf],
    );
    await pool.query(
      `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, model_tier, created_by, org_id, task_queue, cost_usd,
                             reasoning_tokens, max_effort, created_at, prompt_tokens, completion_tokens)
       VALUES ($1, $2, $3, $4, $5, 'u', $6, 'q', $7, $8, $9, timestamptz '2026-01-01T00:00:00Z' + make_interval(days => $10),
               $10 * 100, $10 * 20)`,
      [
        job,
        wf,
        `pt-s${suffix}-${i}`,
        statuses[i % statuses.length],
        ['free', 'cheap', 'frontier'][i % 3],
        org,
        (i % 7) * 0.01,
        i * 10,
        ['low', 'high', null][i % 3],
        i,
      ],
    );
    const envelope = (kind: string, payload: Record<string, unknown>) => ({ kind, payload });
    await pool.query(
      `INSERT INTO job_events (job_id, sequence, event_key, kind, agent_role, occurred_at, envelope)
       VALUES ($1, 1, 'k1', 'level_finished', 'L4.executor', now(), $2), ($1, 2, 'k2', 'model_fallback', 'L4.executor', now(), $3)`,
      [
        job,
        envelope('level_finished', {
          model: i % 2 ? 'm-a' : 'm-b',
          provider: 'p',
          cost_usd: 0.5,
          reasoning_tokens: 3,
          prompt_tokens: 40,
          completion_tokens: 7,
        }),
        envelope('model_fallback', { to_model: 'm-a', to_provider: 'p' }),
      ],
    );
    if (i % 10 === 0) {
      await pool.query(
        `INSERT INTO approvals (approval_id, job_id, workflow_id, waiting_workflow_id, role, action, reason)
         VALUES ($1, $2, $3, 'w', 'L2.architect', 'a', 'r')`,
        [`ap-${suffix}-${i}`, job, wf],
      );
    }
  }
  const admin = keel.token;
  const member = await tokenOf('org-stats');
  const window = 'since=2026-01-11T00:00:00Z&until=2026-02-10T00:00:00Z';
  const mine = await call(`/v1/stats?${window}`, { token: member });
  const asAdmin = await call(`/v1/stats?${window}&org_id=${org}`, { token: admin });
  expect(mine.status).toBe(200);
  expect(asAdmin.body).toEqual(mine.body);

  interface DirectRow {
    status: string;
    model: string;
    n: number;
    c: number;
    r: number;
    calls: number;
    fallbacks: number;
  }
  const direct = async (sql: string) => (await pool.query<DirectRow>(sql, [org])).rows;
  const where = `j.org_id = $1 AND j.created_at >= '2026-01-11T00:00:00Z' AND j.created_at < '2026-02-10T00:00:00Z'`;
  const byStatus = Object.fromEntries(
    (await direct(`SELECT status, count(*)::int AS n FROM job_runs j WHERE ${where} GROUP BY status`)).map((r) => [
      r.status,
      r.n,
    ]),
  );
  expect((mine.body.jobs as { by_status: unknown }).by_status).toEqual(byStatus);
  expect((mine.body.jobs as { total: number }).total).toBe(30);
  const cost = (
    await direct(`SELECT sum(cost_usd)::float AS c, sum(reasoning_tokens)::int AS r FROM job_runs j WHERE ${where}`)
  )[0]!;
  expect(mine.body.cost_usd).toBeCloseTo(cost.c, 6);
  expect(mine.body.reasoning_tokens).toBe(cost.r);
  // Jobs 10..39 are in the window: prompt tokens 100 per day, completion 20 per day, summed over the days.
  expect(mine.body).toMatchObject({ prompt_tokens: 73_500, completion_tokens: 14_700 });
  const tokenTiers = mine.body.by_tier as Array<{ prompt_tokens: number; completion_tokens: number }>;
  expect(tokenTiers.reduce((sum, t) => sum + t.prompt_tokens, 0)).toBe(73_500);
  expect(tokenTiers.reduce((sum, t) => sum + t.completion_tokens, 0)).toBe(14_700);
  // Per answering model, from the level_finished events: 15 jobs each, one level of 40 prompt and 7 completion tokens.
  expect(
    (mine.body.by_model as Array<{ model: string; prompt_tokens: number; completion_tokens: number }>).map((m) => [
      m.model,
      m.prompt_tokens,
      m.completion_tokens,
    ]),
  ).toEqual([
    ['m-a', 600, 105],
    ['m-b', 600, 105],
  ]);
  const models = await direct(
    `SELECT u.model, sum(u.calls)::int AS calls, sum(u.fallbacks)::int AS fallbacks FROM job_model_usage u
       JOIN job_runs j USING (job_id) WHERE ${where} GROUP BY u.model ORDER BY u.model`,
  );
  expect(
    (mine.body.by_model as Array<{ model: string; calls: number; fallbacks: number }>).map((m) => ({
      model: m.model,
      calls: m.calls,
      fallbacks: m.fallbacks,
    })),
  ).toEqual(models);
  expect(mine.body.fallbacks).toBe(30);
  const approvals = (
    await direct(`SELECT count(*)::int AS n FROM approvals a JOIN job_runs j USING (job_id) WHERE ${where}`)
  )[0]!.n;
  expect(mine.body.approvals).toEqual({ pending: approvals });
  expect((mine.body.effort as { strongest: string }).strongest).toBe('high');
  const tiers = Object.fromEntries(
    (mine.body.by_tier as Array<{ tier: string; jobs: number }>).map((t) => [t.tier, t.jobs]),
  );
  expect(tiers).toEqual({ free: 10, cheap: 10, frontier: 10 });

  const projectA = await call(`/v1/stats?${window}&project_slug=stats-a-${suffix}`, { token: member });
  const directA = (
    await direct(
      `SELECT count(*)::int AS n FROM job_runs j JOIN workflows w USING (workflow_id) WHERE ${where} AND w.project_slug = 'stats-a-${suffix}'`,
    )
  )[0]!.n;
  expect((projectA.body.jobs as { total: number }).total).toBe(directA);

  // Another org names this one: not found; without a name it sees only its own (nothing here).
  const other = await tokenOf('org-other');
  expect((await call(`/v1/stats?org_id=${org}`, { token: other })).status).toBe(404);
  expect(((await call('/v1/stats', { token: other })).body.jobs as { total: number }).total).toBe(0);
}, 120_000);

test('the retired localinf paths answer 410 naming their replacement', async () => {
  for (const [method, path] of [
    ['GET', '/v1/localinf/probe'],
    ['POST', '/v1/localinf/wake'],
    ['GET', '/v1/localinf'],
  ]) {
    const response = await call(path!, { method, json: method === 'POST' ? {} : undefined });
    expect(response).toEqual({
      status: 410,
      body: { error: { code: 'localinf_retired', message: expect.stringContaining('GET /v1/models') as string } },
    });
  }
  const anonymous = await fetch(`${keel.baseUrl}/v1/localinf/probe`);
  expect(anonymous.status).toBe(401);
});

test('bad input to work, initiative, intent and stats routes is a 4xx and stores nothing', async () => {
  await call('/v1/work-items', { method: 'POST', json: { slug: 'taken', type: 'docs', title: 'Taken' } });
  const tables = ['work_items', 'initiatives', 'initiative_workflows', 'workflow_notes', 'job_runs'];
  const before = await Promise.all(tables.map(count));
  const bad: Array<[string, string, unknown, number, string]> = [
    ['GET', '/v1/work-types?cursor=zzz', undefined, 400, 'invalid_cursor'],
    ['GET', '/v1/work-items?limit=ten', undefined, 400, 'invalid_request'],
    ['GET', '/v1/work-items?state=sleeping', undefined, 400, 'invalid_request'],
    ['POST', '/v1/work-items', { slug: 'x', type: 'feature' }, 400, 'invalid_request'],
    ['POST', '/v1/work-items', { slug: 'x', type: 'feature', title: 't', project_slug: 'nope-none' }, 404, 'not_found'],
    ['POST', '/v1/work-items', { slug: 'taken', type: 'feature', title: 'dup' }, 409, 'slug_taken'],
    ['GET', '/v1/work-items/none/plan', undefined, 404, 'not_found'],
    ['POST', '/v1/work-items/taken/replan', {}, 400, 'invalid_request'],
    ['POST', '/v1/work-items/taken/replan', { reason: 'x', version: 'one' }, 400, 'invalid_request'],
    ['POST', '/v1/work-items/taken/start', { model_tier: 'platinum' }, 400, 'invalid_request'],
    ['POST', '/v1/initiatives', { goal: 'no title' }, 400, 'invalid_request'],
    ['POST', '/v1/initiatives', { title: 't', workflow_ids: ['not-a-wf'] }, 400, 'invalid_request'],
    ['POST', '/v1/initiatives', { title: 't', workflow_ids: ['wf-999999999'] }, 404, 'not_found'],
    ['GET', '/v1/initiatives/in-none', undefined, 404, 'not_found'],
    ['GET', '/v1/initiatives?cursor=YWJj', undefined, 400, 'invalid_cursor'],
    ['POST', '/v1/command/intents', { text: '' }, 400, 'invalid_request'],
    ['POST', '/v1/command/intents', { text: 'rule: keep it' }, 400, 'workflow_required'],
    ['POST', '/v1/command/intents', { text: 'fact: x', workflow_id: 'wf-999999999' }, 404, 'not_found'],
    ['GET', '/v1/command/notes', undefined, 400, 'invalid_request'],
    ['GET', '/v1/stats?since=yesterday', undefined, 400, 'invalid_request'],
    ['GET', '/v1/stats?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z', undefined, 400, 'invalid_request'],
    ['GET', '/v1/stats?project_slug=Not%20A%20Slug', undefined, 400, 'invalid_request'],
    ['GET', '/v1/stats?bogus=1', undefined, 400, 'invalid_request'],
  ];
  for (const [method, path, json, status, code] of bad) {
    const response = await call(path, { method, json });
    expect({ method, path, status: response.status, body: response.body }).toEqual({
      method,
      path,
      status,
      body: { error: { code, message: expect.any(String) as string } },
    });
  }
  expect(await Promise.all(tables.map(count))).toEqual(before);
});
