import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createApproval } from '../../db/approvals';
import { recordJobFile } from '../../db/files';
import { createHumanTask } from '../../db/human-tasks';
import { createToken } from '../../db/tokens';
import { streamJobEvents } from '../../cli/event-stream';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { uniqueSuffix } from './env';
import { startIdentity, type IdentityUnderTest } from './identity-harness';
import { loadShippedDesigns } from '../../products/design-catalog';

/**
 * Access control as the surface grows: one matrix of every route that names a resource. A token of another org gets
 * 404 for each (the resource does not exist for it), while the owner's token reaches it, so every 404 below is the
 * visibility rule and not a missing fixture. What a level would write (approvals, human tasks, files) is written with
 * the level's own storage functions.
 */
let infra: Infrastructure;
let keel: KeelUnderTest;
const suffix = uniqueSuffix();
let owner: string;
let stranger: string;
const ids: Record<string, string> = {};

interface ApiResponse {
  status: number;
  body: unknown;
}

async function call(token: string, method: string, url: string, json?: unknown): Promise<ApiResponse> {
  const response = await keel.app.inject({
    method: method as 'GET' | 'POST' | 'DELETE',
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(json === undefined ? {} : { payload: json as Record<string, unknown> }),
  });
  let body: unknown = response.body;
  try {
    body = JSON.parse(response.body);
  } catch {
    // A file's bytes: kept as text.
  }
  return { status: response.statusCode, body };
}

async function created(token: string, url: string, json: unknown): Promise<Record<string, unknown>> {
  const res = await call(token, 'POST', url, json);
  if (res.status >= 300) throw new Error(`POST ${url} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  // A job's page asks the running workflow (a Temporal query), which only a worker answers.
  await keel.startWorker();
  const ownerToken = await createToken(infra.db.pool, {
    userId: `ann-${suffix}`,
    orgId: `org-a-${suffix}`,
    isAdmin: false,
  });
  owner = ownerToken.token;
  ids.token = ownerToken.tokenId;
  stranger = (await createToken(infra.db.pool, { userId: `eve-${suffix}`, orgId: `org-b-${suffix}`, isAdmin: false }))
    .token;

  await created(owner, '/v1/projects', { name: 'Atlas', slug: 'atlas' });
  const job = await created(owner, '/v1/chat', { prompt: 'Write hello.md', project_slug: 'atlas' });
  ids.job = job.job_id as string;
  ids.workflow = job.workflow_id as string;
  ids.prompt = job.prompt_id as string;
  // The run graph exists once the job has finished: read its stream to the end (the owner's own token).
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: owner, jobId: ids.job })) void event;

  // What the job's levels would write: a file, an approval, a human task.
  const dir = path.join(keel.workspaceRoot, ids.job);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'hello.md'), 'hello\n');
  await recordJobFile(infra.db.pool, ids.job, {
    path: 'hello.md',
    sha256: crypto.createHash('sha256').update('hello\n').digest('hex'),
    sizeBytes: 6,
  });
  ids.approval = `ap-${crypto.randomUUID()}`;
  await createApproval(infra.db.pool, {
    approvalId: ids.approval,
    jobId: ids.job,
    workflowId: ids.workflow,
    waitingWorkflowId: ids.job,
    role: 'L2.architect',
    action: 'deploy',
    reason: 'going live',
  });
  ids.task = `ht-${crypto.randomUUID()}`;
  await createHumanTask(infra.db.pool, {
    taskId: ids.task,
    jobId: ids.job,
    workflowId: ids.workflow,
    waitingWorkflowId: ids.job,
    role: 'L3.lead',
    title: 'Call the bakery',
    detail: 'ask for opening hours',
    assignee: 'ann',
    dueAt: null,
  });

  const roadmap = await created(owner, '/v1/capabilities/plan', { capability: 'typescript-library' });
  ids.roadmap = roadmap.roadmap_id as string;
  const vertical = await created(owner, '/v1/verticals', { name: 'Bakeries' });
  ids.vertical = vertical.vertical_id as string;
  await created(owner, '/v1/work-items', { slug: 'landing', type: 'docs', title: 'Landing page' });
  const initiative = await created(owner, '/v1/initiatives', { title: 'Launch', workflow_ids: [ids.workflow] });
  ids.initiative = initiative.initiative_id as string;
  await created(owner, '/v1/command/intents', { text: 'rule: always write tests', workflow_id: ids.workflow });
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

/**
 * Every route that names one resource of an org, read with GET. `:x` placeholders are filled from `ids`. Each row is
 * one element: jest hands a test function more parameters than its row has as a `done` callback, and waits for it.
 */
const NAMED: string[] = [
  '/v1/jobs/:job',
  '/v1/jobs/:job/files',
  '/v1/jobs/:job/files/hello.md',
  '/v1/workflows/:workflow',
  '/v1/workflows/:workflow/prompts',
  '/v1/workflows/:workflow/graph',
  '/v1/workflows/:workflow/run-graph',
  '/v1/approvals/:approval',
  '/v1/human-tasks/:task',
  '/v1/projects/atlas',
  '/v1/capabilities/roadmaps/:roadmap',
  '/v1/verticals/:vertical',
  '/v1/work-items/landing',
  '/v1/work-items/landing/plan',
  '/v1/initiatives/:initiative',
  '/v1/command/notes?workflow_id=:workflow',
];

/** Routes that change a resource: a stranger must get 404 and change nothing. */
const CHANGES: Array<[string, string, unknown]> = [
  ['POST', '/v1/jobs/:job/cancel', {}],
  ['POST', '/v1/jobs/:job/resume', { call_id: 'c1', answer: 'yes' }],
  ['POST', '/v1/workflows/:workflow/prompts', { prompt: 'and another thing' }],
  ['POST', '/v1/approvals/:approval/decide', { decision: 'approve' }],
  ['POST', '/v1/human-tasks/:task/complete', { note: 'done' }],
  ['POST', '/v1/chat', { prompt: 'sneak in', workflow_id: ':workflow' }],
  ['POST', '/v1/work-items/landing/replan', { reason: 'mine now' }],
  ['POST', '/v1/work-items/landing/start', {}],
  ['POST', '/v1/command/intents', { text: 'fact: the sky is green', workflow_id: ':workflow' }],
  ['POST', '/v1/initiatives', { title: 'Borrowed', workflow_ids: [':workflow'] }],
  ['DELETE', '/v1/tokens/:token', undefined],
];

const fill = (text: string) =>
  text.replace(/:(job|workflow|approval|task|roadmap|vertical|initiative|token)\b/g, (_, k: string) => ids[k]!);
const fillBody = (body: unknown): unknown => (body === undefined ? undefined : JSON.parse(fill(JSON.stringify(body))));

test.each(NAMED)("GET %s: the owner's org reaches it, another org gets 404", async (url) => {
  const target = fill(url);
  const mine = await call(owner, 'GET', target);
  expect({ url, status: mine.status }).toEqual({ url, status: 200 });
  const theirs = await call(stranger, 'GET', target);
  expect({ url, status: theirs.status, code: (theirs.body as { error?: { code: string } }).error?.code }).toEqual({
    url,
    status: 404,
    code: 'not_found',
  });
});

test.each(CHANGES)('%s %s from another org is 404 and changes nothing', async (method, url, body) => {
  const before = await snapshot();
  const theirs = await call(stranger, method, fill(url), fillBody(body));
  expect({ url, status: theirs.status }).toEqual({ url, status: 404 });
  expect(await snapshot()).toEqual(before);
});

/** Everything a stranger's change could touch in the owner's org. */
async function snapshot(): Promise<unknown> {
  const q = async (sql: string, params: unknown[] = []) =>
    (await infra.db.pool.query<Record<string, unknown>>(sql, params)).rows;
  return {
    jobs: await q('SELECT job_id, status FROM job_runs WHERE workflow_id = $1 ORDER BY job_id', [ids.workflow]),
    prompts: await q('SELECT prompt_id FROM prompt_threads WHERE workflow_id = $1 ORDER BY prompt_id', [ids.workflow]),
    approvals: await q('SELECT approval_id, status FROM approvals WHERE approval_id = $1', [ids.approval]),
    tasks: await q('SELECT task_id, state FROM human_tasks WHERE task_id = $1', [ids.task]),
    items: await q("SELECT slug, plan_version, state FROM work_items WHERE slug = 'landing'"),
    notes: await q('SELECT count(*)::int AS n FROM workflow_notes WHERE workflow_id = $1', [ids.workflow]),
    initiatives: await q('SELECT count(*)::int AS n FROM initiative_workflows WHERE workflow_id = $1', [ids.workflow]),
    token: await q('SELECT revoked_at FROM api_tokens WHERE token_id = $1', [ids.token]),
  };
}

test("lists and aggregates of another org hold none of the owner's resources", async () => {
  for (const [url, key] of [
    ['/v1/workflows', 'workflows'],
    ['/v1/approvals', 'approvals'],
    ['/v1/human-tasks', 'tasks'],
    ['/v1/projects', 'projects'],
    ['/v1/verticals', 'verticals'],
    ['/v1/work-items', 'work_items'],
    ['/v1/initiatives', 'initiatives'],
  ] as const) {
    const mine = await call(owner, 'GET', url);
    const theirs = await call(stranger, 'GET', url);
    expect({ url, mine: (mine.body as Record<string, unknown[]>)[key]!.length > 0 }).toEqual({ url, mine: true });
    expect({ url, theirs: (theirs.body as Record<string, unknown[]>)[key] }).toEqual({ url, theirs: [] });
  }
  const mineDesigns = await call(owner, 'POST', '/v1/designs', await designBody(`own-${suffix}`));
  expect(mineDesigns.status).toBe(201);
  const designs = (await call(stranger, 'GET', '/v1/designs')).body as { designs: Array<{ id: string }> };
  expect(designs.designs.map((d) => d.id)).not.toContain(`own-${suffix}`);
  const stats = (await call(stranger, 'GET', '/v1/stats')).body as Record<string, unknown>;
  expect(JSON.stringify(stats)).not.toContain('atlas');
  const capabilities = (await call(stranger, 'GET', '/v1/capabilities')).body;
  expect(JSON.stringify(capabilities)).not.toContain(ids.roadmap);
  const statsOfOther = await call(stranger, 'GET', `/v1/stats?org_id=org-a-${suffix}`);
  expect(statsOfOther.status).toBe(404);
});

test('path traversal on file routes is refused, even for the owner', async () => {
  for (const attempt of [
    '..%2F..%2Fetc%2Fpasswd',
    '../../etc/passwd',
    '%2e%2e/%2e%2e/etc/passwd',
    'sub/..%2F..%2F..%2Fetc%2Fpasswd',
    '%2Fetc%2Fpasswd',
    '..%5C..%5Cetc%5Cpasswd',
  ]) {
    const res = await call(owner, 'GET', `/v1/jobs/${ids.job}/files/${attempt}`);
    expect({ attempt, status: res.status }).toEqual({ attempt, status: 404 });
  }
});

async function designBody(id: string) {
  const [shipped] = await loadShippedDesigns();
  return { ...shipped!, id };
}

describe("a disabled user's sessions and API tokens stop at once", () => {
  let identity: IdentityUnderTest;

  beforeAll(async () => {
    // The identity service over this file's ingest schema: disabling a user reaches their API tokens there.
    identity = await startIdentity({ INGEST_SCHEMA: infra.db.schema });
  });

  afterAll(async () => {
    await identity?.close();
  });

  test('disabling revokes the API token and ends the cached session on the next request', async () => {
    const admin = await identity.createUser({ email: `root-${suffix}@example.test`, role: 'admin' });
    const dora = await identity.createUser({ email: `dora-${suffix}@example.test` });
    const { token } = await createToken(infra.db.pool, { userId: dora.id, orgId: `org-a-${suffix}`, isAdmin: false });
    const doraCookie = await identity.signIn(dora.email);
    const adminCookie = await identity.signIn(admin.email, '10.0.0.2');

    const preflight = () =>
      identity.app.inject({ method: 'GET', url: '/internal/preflight', headers: { cookie: doraCookie } });
    const before = await preflight();
    expect(before.statusCode).toBe(200);
    // The 5-minute cache cookie answered: this is the check that used to outlive a ban.
    expect(before.json<{ session: { source: string } }>().session.source).toBe('cache');
    expect((await call(token, 'GET', '/v1/projects')).status).toBe(200);

    const disabled = await identity.app.inject({
      method: 'PATCH',
      url: `/admin/users/${dora.id}`,
      headers: { cookie: adminCookie },
      payload: { disabled: true },
    });
    expect(disabled.statusCode).toBe(200);

    expect((await call(token, 'GET', '/v1/projects')).status).toBe(401);
    expect((await call(token, 'POST', '/v1/chat', { prompt: 'one more' })).status).toBe(401);
    expect((await preflight()).statusCode).toBe(401);
  });
});

// Last in the file: a stream stays open after its status line, which is all that is read here.
test('GET /v1/jobs/:id/stream: the owner gets the stream, another org 404', async () => {
  for (const [token, status] of [
    [stranger, 404],
    [owner, 200],
  ] as const) {
    const controller = new AbortController();
    const response = await fetch(`${keel.baseUrl}/v1/jobs/${ids.job}/stream`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(response.status).toBe(status);
    controller.abort();
  }
});
