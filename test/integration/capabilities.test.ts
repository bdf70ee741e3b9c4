import { streamJobEvents } from '../../cli/event-stream';
import { createToken } from '../../db/tokens';
import type { EventEnvelope } from '../../events/envelope';
import { uniqueSuffix } from './env';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * Capabilities end to end on the real stack and the offline demo model: roadmap jobs (units as child workflows, the
 * 3-retries-then-blocked rule driven by the demo model's `#verify-fail=N`), the registry and ledger, work items that
 * need a capability (product builds), and a vertical's discovery paused for a person and resumed.
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

async function follow(jobId: string, onEvent: (e: EventEnvelope) => Promise<void> = async () => {}) {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
    events.push(event);
    await onEvent(event);
  }
  return events;
}

const kinds = (events: EventEnvelope[], prefix: string) => events.filter((e) => e.kind.startsWith(prefix));
const count = async (table: string) =>
  Number((await infra.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

async function otherOrgToken() {
  const { token } = await createToken(infra.db.pool, {
    userId: `u-${suffix}`,
    orgId: `org-other-${suffix}`,
    isAdmin: false,
  });
  return token;
}

test('a planned capability is acquired by its roadmap job, recorded in registry and ledger, and used by a later job', async () => {
  const planned = await call('/v1/capabilities/plan', {
    method: 'POST',
    json: { capability: 'typescript-library', reason: 'clients ask for SDKs' },
  });
  expect(planned.status).toBe(202);
  const jobId = planned.body.job_id as string;
  const roadmapId = planned.body.roadmap_id as string;

  const events = await follow(jobId);
  expect(events.at(-1)?.kind).toBe('final');
  const unitKinds = kinds(events, 'acquisition_unit_').map((e) => `${e.kind}:${e.payload.unit as string}`);
  // scenario, one unit per tool, verify: each started then verified on its first attempt.
  expect(unitKinds).toEqual([
    'acquisition_unit_started:scenario',
    'acquisition_unit_verified:scenario',
    'acquisition_unit_started:tool-write_file',
    'acquisition_unit_verified:tool-write_file',
    'acquisition_unit_started:tool-edit_file',
    'acquisition_unit_verified:tool-edit_file',
    'acquisition_unit_started:verify',
    'acquisition_unit_verified:verify',
  ]);
  const acquired = events.find((e) => e.kind === 'capability_acquired')!;
  expect(acquired.payload).toMatchObject({ roadmap_id: roadmapId, capability: 'typescript-library' });
  // The units' levels ran in the roadmap job's own stream (executor wrote, verifier passed).
  expect(events.filter((e) => e.kind === 'file_created').map((e) => e.payload.path)).toContain(
    'skills/typescript-library/scenario.md',
  );

  const roadmap = await call(`/v1/capabilities/roadmaps/${roadmapId}`);
  expect(roadmap.body).toMatchObject({ status: 'acquired', job_id: jobId });
  expect((roadmap.body.units as Array<{ status: string }>).every((u) => u.status === 'verified')).toBe(true);

  const registry = await call('/v1/capabilities?status=active');
  expect((registry.body.capabilities as Array<{ name: string }>).map((c) => c.name)).toEqual(['typescript-library']);

  const ledger = await call('/v1/capabilities/ledger?capability=typescript-library');
  const entries = ledger.body.entries as Array<{ action: string; roadmap_id: string; evidence: unknown[] }>;
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ action: 'activated', roadmap_id: roadmapId });
  expect(entries[0]!.evidence).toHaveLength(4);

  // Planning it again: it is active, nothing is stored.
  const roadmapsBefore = await count('capability_roadmaps');
  expect(
    (await call('/v1/capabilities/plan', { method: 'POST', json: { capability: 'typescript-library' } })).body,
  ).toEqual({
    error: { code: 'capability_active', message: expect.any(String) as string },
  });
  expect(await count('capability_roadmaps')).toBe(roadmapsBefore);

  // A later job of a work type that needs it runs without acquiring anything.
  expect(
    (
      await call('/v1/work-items', {
        method: 'POST',
        json: { slug: 'sdk', type: 'library', title: 'Write sdk/README.md for the SDK' },
      })
    ).status,
  ).toBe(201);
  const started = await call('/v1/work-items/sdk/start', { method: 'POST', json: {} });
  expect(started.status).toBe(202);
  const build = await follow(started.body.job_id as string);
  expect(build.at(-1)?.kind).toBe('final');
  expect(build.find((e) => e.kind === 'product_build_started')?.payload).toMatchObject({
    capabilities: [{ name: 'typescript-library', status: 'active' }],
    missing: [],
  });
  expect(kinds(build, 'acquisition_unit_')).toHaveLength(0);
  expect((await call('/v1/work-items/sdk')).body.state).toBe('done');

  // A person turns it off: the registry and the ledger say so, and it cannot be turned off twice.
  const off = await call('/v1/capabilities/typescript-library/deactivate', {
    method: 'POST',
    json: { reason: 'the SDK template changed' },
  });
  expect(off.body).toMatchObject({ name: 'typescript-library', status: 'available' });
  const after = (await call('/v1/capabilities/ledger?capability=typescript-library')).body.entries as Array<{
    action: string;
    actor: string;
    reason: string;
  }>;
  expect(after[0]).toMatchObject({ action: 'deactivated', actor: 'user:dev', reason: 'the SDK template changed' });
  expect(after.map((e) => e.action)).toEqual(['deactivated', 'activated']);
  const again = await call('/v1/capabilities/typescript-library/deactivate', { method: 'POST', json: { reason: 'x' } });
  expect(again.body).toEqual({ error: { code: 'capability_not_active', message: expect.any(String) as string } });
}, 240_000);

test('a unit failing its first attempt and 3 retries blocks the roadmap with the reason and what to do', async () => {
  const planned = await call('/v1/capabilities/plan', {
    method: 'POST',
    json: { capability: 'docs-site', reason: 'try the failing path #verify-fail=4' },
  });
  expect(planned.status).toBe(202);
  const events = await follow(planned.body.job_id as string);
  const failed = events.filter((e) => e.kind === 'acquisition_unit_failed');
  expect(failed.map((e) => [e.payload.unit, e.payload.attempt, e.payload.final])).toEqual([
    ['scenario', 1, false],
    ['scenario', 2, false],
    ['scenario', 3, false],
    ['scenario', 4, true],
  ]);
  const blocked = events.find((e) => e.kind === 'capability_acquisition_blocked')!;
  expect(blocked.payload.reason).toMatch(/failed 4 times/);
  expect(blocked.payload.action).toMatch(/plan docs-site again/);
  expect(events.at(-1)).toMatchObject({ kind: 'error', payload: { code: 'capability_acquisition_blocked' } });
  expect(events.some((e) => e.kind === 'capability_acquired')).toBe(false);

  const roadmap = await call(`/v1/capabilities/roadmaps/${planned.body.roadmap_id as string}`);
  expect(roadmap.body).toMatchObject({ status: 'blocked', blocked_reason: blocked.payload.reason });
  expect((roadmap.body.units as Array<{ status: string; attempts: number }>)[0]).toMatchObject({
    status: 'blocked',
    attempts: 4,
  });
  const registry = await call('/v1/capabilities?status=blocked');
  expect((registry.body.capabilities as Array<{ name: string }>).map((c) => c.name)).toEqual(['docs-site']);
  expect((await call(`/v1/jobs/${planned.body.job_id as string}`)).body.status).toBe('failed');
}, 240_000);

test('a product build that lacks a capability acquires it in the same job and continues', async () => {
  expect(
    (
      await call('/v1/work-items', {
        method: 'POST',
        json: { slug: 'bakery-site', type: 'product-build', title: 'Write site/index.md for the bakery' },
      })
    ).status,
  ).toBe(201);
  // No body at all: the start body is optional.
  const started = await call('/v1/work-items/bakery-site/start', { method: 'POST' });
  expect(started.status).toBe(202);
  const events = await follow(started.body.job_id as string);
  const order = events
    .map((e) => e.kind)
    .filter((k) => ['product_build_started', 'capability_acquired', 'scenario_started', 'final'].includes(k));
  expect(order.slice(0, 3)).toEqual(['product_build_started', 'capability_acquired', 'scenario_started']);
  expect(order.at(-1)).toBe('final');
  expect(events.find((e) => e.kind === 'product_build_started')?.payload.missing).toEqual(['static-site']);
  expect((await call('/v1/capabilities?status=active')).body.capabilities).toEqual(
    expect.arrayContaining([expect.objectContaining({ name: 'static-site' })]),
  );
  expect(events.filter((e) => e.kind === 'file_created').map((e) => e.payload.path)).toContain('site/index.md');
}, 240_000);

test("a work item's product build asks a question, answered through the work item's own job id", async () => {
  expect(
    (
      await call('/v1/work-items', {
        method: 'POST',
        json: { slug: 'bakery-ask', type: 'product-build', title: 'Write site/hours.md for the bakery #ask' },
      })
    ).status,
  ).toBe(201);
  const started = await call('/v1/work-items/bakery-ask/start', { method: 'POST' });
  expect(started.status).toBe(202);
  const jobId = started.body.job_id as string;
  const resumes: ApiResponse[] = [];
  const events = await follow(jobId, async (event) => {
    if (event.kind !== 'ask_user') return;
    // The same id the client submitted with and streams from: the work item's job.
    const answered = await call(`/v1/jobs/${jobId}/resume`, {
      method: 'POST',
      json: { call_id: event.payload.call_id, answer: 'friendly' },
    });
    resumes.push(answered);
    // A second answer to the same question is refused: it was taken once.
    resumes.push(
      await call(`/v1/jobs/${jobId}/resume`, { method: 'POST', json: { call_id: event.payload.call_id, answer: 'x' } }),
    );
  });
  expect(resumes.map((r) => r.status)).toEqual([200, 409]);
  expect(resumes[1]!.body).toMatchObject({ error: { code: 'job_not_paused' } });
  expect(events.at(-1)?.kind).toBe('final');
  // The answer reached the level that asked: the demo architect writes it into its task.
  const architect = events.find((e) => e.kind === 'level_finished' && e.agent_role === 'L2.architect')!;
  expect(String(architect.payload.output_preview)).toContain('Tone: friendly.');
  expect((await call('/v1/work-items/bakery-ask')).body.state).toBe('done');
  // Nothing is waiting any more: a resume now is refused as for any job that is not paused.
  const late = await call(`/v1/jobs/${jobId}/resume`, { method: 'POST', json: { call_id: 'call-x', answer: 'x' } });
  expect(late.status).toBe(409);
}, 240_000);

test('vertical discovery pauses for a person and resumes with the answer', async () => {
  const started = await call('/v1/verticals', {
    method: 'POST',
    json: { name: 'Bakeries', description: 'Neighbourhood bakeries that want a site and hosting' },
  });
  expect(started.status).toBe(202);
  const jobId = started.body.job_id as string;
  const verticalId = started.body.vertical_id as string;
  let pausedStatus: unknown;
  let pausedVertical: unknown;
  const events = await follow(jobId, async (event) => {
    if (event.kind !== 'ask_user') return;
    // The job waits: status paused (already when the question arrives), the vertical awaits confirmation.
    pausedStatus = (await call(`/v1/jobs/${jobId}`)).body.status;
    pausedVertical = (await call(`/v1/verticals/${verticalId}`)).body.status;
    const resumed = await call(`/v1/jobs/${jobId}/resume`, {
      method: 'POST',
      json: { call_id: event.payload.call_id, answer: 'yes' },
    });
    expect(resumed.status).toBe(200);
  });
  expect(pausedStatus).toBe('paused');
  expect(pausedVertical).toBe('awaiting_confirmation');
  expect(events.map((e) => e.kind)).toEqual([
    'vertical_discovery_started',
    'ask_user',
    'vertical_planning_resumed',
    'final',
  ]);
  expect(events[2]!.payload).toMatchObject({ vertical_id: verticalId, confirmed: true });
  const list = await call('/v1/verticals');
  const vertical = (
    list.body.verticals as Array<{
      vertical_id: string;
      status: string;
      plan: { capabilities: Array<{ name: string }> };
    }>
  ).find((v) => v.vertical_id === verticalId)!;
  expect(vertical.status).toBe('planned');
  expect(vertical.plan.capabilities.map((c) => c.name)).toEqual(['static-site', 'vercel-deploy']);
}, 120_000);

test("another org's roadmaps, verticals and work items are not found, and its registry is its own", async () => {
  const token = await otherOrgToken();
  const roadmapId = (
    await infra.db.pool.query<{ roadmap_id: string }>('SELECT roadmap_id FROM capability_roadmaps LIMIT 1')
  ).rows[0]!.roadmap_id;
  const verticalId = (await infra.db.pool.query<{ vertical_id: string }>('SELECT vertical_id FROM verticals LIMIT 1'))
    .rows[0]!.vertical_id;
  for (const path of [
    `/v1/capabilities/roadmaps/${roadmapId}`,
    `/v1/verticals/${verticalId}`,
    '/v1/work-items/sdk',
    '/v1/work-items/sdk/plan',
  ]) {
    expect({ path, ...(await call(path, { token })) }).toMatchObject({
      path,
      status: 404,
      body: { error: { code: 'not_found' } },
    });
  }
  expect((await call('/v1/work-items/sdk/replan', { method: 'POST', json: { reason: 'x' }, token })).status).toBe(404);
  const registry = await call('/v1/capabilities?limit=100', { token });
  const statuses = registry.body.capabilities as Array<{ status: string; org_id: string }>;
  expect(statuses.every((c) => c.status === 'available' && c.org_id === `org-other-${suffix}`)).toBe(true);
  expect((await call('/v1/capabilities/ledger', { token })).body.entries).toEqual([]);
  expect((await call('/v1/verticals', { token })).body.verticals).toEqual([]);
});

test('bad input is a 4xx with the error shape and stores nothing', async () => {
  const tables = ['capability_roadmaps', 'verticals', 'job_runs', 'workflows', 'work_items'];
  const before = await Promise.all(tables.map(count));
  const bad: Array<[string, string, unknown, number, string]> = [
    ['POST', '/v1/capabilities/plan', { capability: 'Not A Name' }, 400, 'invalid_request'],
    ['POST', '/v1/capabilities/plan', { capability: 'telepathy' }, 400, 'unknown_capability'],
    ['POST', '/v1/capabilities/plan', { capability: 'static-site', extra: 1 }, 400, 'invalid_request'],
    [
      'POST',
      '/v1/capabilities/plan',
      { capability: 'x-y', requirements: { secrets: ['lower'] } },
      400,
      'invalid_request',
    ],
    ['GET', '/v1/capabilities?cursor=not-ours', undefined, 400, 'invalid_cursor'],
    ['GET', '/v1/capabilities?status=gone', undefined, 400, 'invalid_request'],
    ['GET', '/v1/capabilities/ledger?limit=abc', undefined, 400, 'invalid_request'],
    ['GET', '/v1/capabilities/roadmaps/rm-missing', undefined, 404, 'not_found'],
    ['POST', '/v1/capabilities/static-site/deactivate', {}, 400, 'invalid_request'],
    ['POST', '/v1/verticals', { name: '' }, 400, 'invalid_request'],
    ['POST', '/v1/verticals', { name: 'x', budget: 3 }, 400, 'invalid_request'],
    ['GET', '/v1/verticals?cursor=%%%', undefined, 400, 'invalid_cursor'],
    ['GET', '/v1/verticals/vt-nope', undefined, 404, 'not_found'],
    ['POST', '/v1/work-items', { slug: 'Bad Slug', type: 'feature', title: 't' }, 400, 'invalid_request'],
    ['POST', '/v1/work-items', { slug: 'ok', type: 'astrology', title: 't' }, 400, 'unknown_work_type'],
    ['POST', '/v1/work-items', { slug: 'ok', type: 'feature', title: 't', initiative_id: 'in-none' }, 404, 'not_found'],
    ['POST', '/v1/work-items/missing/start', {}, 404, 'not_found'],
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
