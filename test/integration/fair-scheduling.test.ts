/**
 * Fair scheduling between tenants (docs/scheduling.md) against the real Temporal dev server, the real API and a real
 * worker: one slot for the whole deployment, so every job after the first waits `queued`. Jobs hold their slot
 * deterministically by pausing on a question (`#ask`); each way a job can end frees the slot for the next queued job.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createToken } from '../../db/tokens';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { eventually } from './eventually';

let infra: Infrastructure;
let temporal: TestWorkflowEnvironment;
let keel: KeelUnderTest;
let orgB: string;

// Each test runs several jobs to their pause or end one after another; a failing job runs every verifier retry first.
jest.setTimeout(300_000);

interface JobView {
  status: string;
  queue: {
    state: 'queued' | 'running' | 'released';
    position: number | null;
    reason: string | null;
    project_slug: string | null;
    project_limit: number | null;
  } | null;
  pending: { questions: Array<{ call_id: string }> | null } | null;
}

beforeAll(async () => {
  infra = await startInfrastructure();
  temporal = infra.temporal;
  keel = await startKeel({
    ...infra,
    scheduling: {
      policy: { orgSlots: null, totalSlots: 1, fair: true },
      // Long enough that a grant reaches the next job by its signal, not by the backstop claim.
      reclaimMs: 10 * 60_000,
      // The sweeper finds a job terminated from outside quickly.
      sweepMs: 300,
    },
  });
  await keel.startWorker();
  orgB = (await createToken(infra.db.pool, { userId: 'bea', orgId: 'org-b', isAdmin: false })).token;
}, 120_000);

/** Every job a test submitted, so one failing test does not leave the slot held for the next. */
const submitted: Array<{ jobId: string; token: string }> = [];

afterEach(async () => {
  for (const { jobId, token } of submitted.splice(0)) {
    if (!['completed', 'failed', 'cancelled'].includes((await view(jobId, token)).status)) await cancel(jobId, token);
  }
  await eventually(
    async () => {
      const { rows } = await infra.db.pool.query(`SELECT 1 FROM job_slots WHERE state <> 'released'`);
      return rows.length === 0;
    },
    { what: 'every slot released after the test' },
  );
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

async function submit(
  prompt: string,
  options: { token?: string; priority?: number; project?: string } = {},
): Promise<string> {
  const res = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${options.token ?? keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      prompt,
      ...(options.priority !== undefined ? { metadata: { priority: options.priority } } : {}),
      ...(options.project !== undefined ? { project_slug: options.project } : {}),
    }),
  });
  expect(res.status).toBe(202);
  const jobId = ((await res.json()) as { job_id: string }).job_id;
  submitted.push({ jobId, token: options.token ?? keel.token });
  return jobId;
}

async function view(jobId: string, token = keel.token): Promise<JobView> {
  const res = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as JobView;
}

/** A job holding the slot: paused on its question, so it keeps running until it is answered or ended. */
async function holding(jobId: string, token = keel.token): Promise<JobView> {
  return eventually(
    async () => {
      const v = await view(jobId, token);
      return v.status === 'paused' && v.queue?.state === 'running' ? v : undefined;
    },
    { what: `${jobId} running and paused on its question`, timeoutMs: 90_000 },
  );
}

/** A JSON request as the dev token (an admin of org-test) or `token`: its status and body. */
async function call<T = Record<string, unknown>>(
  url: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${keel.baseUrl}${url}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.token ?? keel.token}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function queuedEvents(jobId: string): Promise<unknown[]> {
  return eventually(
    async () => {
      const { rows } = await infra.db.pool.query<{ payload: unknown }>(
        `SELECT envelope->'payload' AS payload FROM job_events WHERE job_id = $1 AND kind = 'queued'`,
        [jobId],
      );
      return rows.length > 0 ? rows.map((r) => r.payload) : undefined;
    },
    { what: `${jobId}'s queued event` },
  );
}

async function queued(jobId: string, token = keel.token): Promise<JobView> {
  return eventually(
    async () => {
      const v = await view(jobId, token);
      return v.status === 'queued' && v.queue?.state === 'queued' ? v : undefined;
    },
    { what: `${jobId} queued`, timeoutMs: 60_000 },
  );
}

async function cancel(jobId: string, token = keel.token): Promise<void> {
  const res = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(202);
}

async function released(jobId: string, token = keel.token): Promise<void> {
  await eventually(async () => ((await view(jobId, token)).queue?.state === 'released' ? true : undefined), {
    what: `${jobId}'s slot released`,
    timeoutMs: 60_000,
  });
}

test('a queued job says where it waits and why, and starts when a cancel frees the slot', async () => {
  const first = await submit('Write a.md #ask');
  await holding(first);
  const second = await submit('Write b.md #ask');
  const waiting = await queued(second);
  expect(waiting.queue).toMatchObject({ position: 1, reason: 'total_limit' });
  // The job reads queued as soon as its claim commits; its `queued` event follows.
  const announced = await queuedEvents(second);
  expect(announced).toEqual([{ position: 1, reason: 'total_limit', org_limit: null, total_limit: 1 }]);

  await cancel(first);
  await released(first);
  await holding(second);
  await cancel(second);
  await released(second);
});

test('a job terminated from outside (the Temporal UI) has its slot freed by the sweeper', async () => {
  const first = await submit('Write c.md #ask');
  await holding(first);
  const second = await submit('Write d.md #ask');
  await queued(second);
  await temporal.client.workflow.getHandle(first).terminate('terminated from the Temporal UI');
  await released(first);
  await holding(second);
  await cancel(second);
  await released(second);
});

test("fair share: org B's first job takes the next slot ahead of org A's backlog", async () => {
  const holder = await submit('Write g.md #ask');
  await holding(holder);
  const backlog: string[] = [];
  for (const name of ['h', 'i', 'j']) backlog.push(await submit(`Write ${name}.md #ask`));
  for (const jobId of backlog) await queued(jobId);
  const fromB = await submit('Write k.md #ask', { token: orgB });
  expect((await queued(fromB, orgB)).queue).toMatchObject({ position: 1 });

  await cancel(holder);
  await holding(fromB, orgB);
  for (const jobId of backlog) expect((await view(jobId)).queue?.state).toBe('queued');

  // Then org A's backlog, in its order; each queued job's place moves up as the one ahead of it starts.
  await cancel(fromB, orgB);
  await holding(backlog[0]!);
  expect((await view(backlog[1]!)).queue).toMatchObject({ state: 'queued', position: 1 });
  expect((await view(backlog[2]!)).queue).toMatchObject({ state: 'queued', position: 2 });
  await cancel(backlog[0]!);
  await holding(backlog[1]!);
  expect((await view(backlog[2]!)).queue).toMatchObject({ state: 'queued', position: 1 });
  // Cancelled while the slot is being handed to it, a queued job still passes the slot on.
  await cancel(backlog[1]!);
  await cancel(backlog[2]!);
  for (const jobId of backlog) await released(jobId);
});

test("priority orders an org's own queue", async () => {
  const holder = await submit('Write l.md #ask');
  await holding(holder);
  const low = await submit('Write m.md #ask');
  const high = await submit('Write n.md #ask', { priority: 5 });
  expect((await queued(high)).queue).toMatchObject({ position: 1 });
  expect((await queued(low)).queue).toMatchObject({ position: 2 });
  await cancel(holder);
  await holding(high);
  expect((await view(low)).queue?.state).toBe('queued');
  await cancel(high);
  await holding(low);
  await cancel(low);
  await released(low);
});

test('a job that fails frees its slot: the job queued behind it starts', async () => {
  const holder = await submit('Write o.md #ask');
  await holding(holder);
  // Every verification of its file fails (attempts 1-4, then the escalated L2's 5-8): the gate fails the job.
  const failing = await submit('Write p.md that greets the reader #verify-fail=8');
  await queued(failing);
  const next = await submit('Write q.md #ask');
  expect((await queued(next)).queue).toMatchObject({ position: 2 });

  await cancel(holder);
  await eventually(
    async () => {
      const v = await view(failing);
      if (['completed', 'cancelled'].includes(v.status)) throw new Error(`${failing} ended ${v.status}`);
      return v.status === 'failed';
    },
    { what: `${failing} failed`, timeoutMs: 240_000, intervalMs: 250 },
  );
  await released(failing);
  await holding(next);

  const { rows } = await infra.db.pool.query<{ job_id: string; granted_at: Date; released_at: Date | null }>(
    'SELECT job_id, granted_at, released_at FROM job_slots WHERE job_id = ANY($1)',
    [[holder, failing, next]],
  );
  const at = (jobId: string) => rows.find((r) => r.job_id === jobId)!;
  // One at a time: each was granted only once the one before it had given the slot back.
  expect(at(failing).granted_at.getTime()).toBeGreaterThanOrEqual(at(holder).released_at!.getTime());
  expect(at(next).granted_at.getTime()).toBeGreaterThanOrEqual(at(failing).released_at!.getTime());
  await cancel(next);
  await released(next);
});

describe('a project limit', () => {
  interface ProjectRow {
    project_slug: string;
    running: number;
    queued: number;
    max_running: number | null;
  }
  const setLimit = (slug: string, body: unknown, token?: string) =>
    call<ProjectRow & { error?: { code: string } }>(`/v1/admin/job-slots/orgs/org-test/projects/${slug}`, {
      method: 'PUT',
      body,
      token,
    });
  const projectsOfOrg = async () => {
    const res = await call<{ orgs: Array<{ org_id: string; projects: ProjectRow[] }> }>('/v1/admin/job-slots');
    expect(res.status).toBe(200);
    return res.body.orgs.find((o) => o.org_id === 'org-test')?.projects ?? [];
  };

  beforeAll(async () => {
    for (const slug of ['limited', 'open']) {
      expect((await call('/v1/projects', { method: 'POST', body: { name: slug, slug } })).status).toBe(201);
    }
  });

  test('is set by admins only, with a number in range or null, for a project that exists', async () => {
    expect((await setLimit('limited', { max_running: -1 })).status).toBe(400);
    expect((await setLimit('limited', { max_running: 100_001 })).status).toBe(400);
    expect((await setLimit('limited', { max_running: '2' })).status).toBe(400);
    expect((await setLimit('limited', {})).status).toBe(400);
    expect((await setLimit('Not_A_Slug', { max_running: 1 })).status).toBe(400);
    const missing = await setLimit('no-such-project', { max_running: 1 });
    expect(missing.status).toBe(404);
    expect(missing.body.error?.code).toBe('not_found');
    const notAdmin = await setLimit('limited', { max_running: 1 }, orgB);
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.body.error?.code).toBe('admin_only');
    expect((await call('/v1/admin/job-slots', { token: orgB })).status).toBe(403);

    const set = await setLimit('limited', { max_running: 3 });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ project_slug: 'limited', running: 0, queued: 0, max_running: 3 });
    expect(await projectsOfOrg()).toContainEqual({ project_slug: 'limited', running: 0, queued: 0, max_running: 3 });
    expect((await setLimit('limited', { max_running: null })).body).toMatchObject({ max_running: null });
    expect((await projectsOfOrg()).find((p) => p.project_slug === 'limited')).toBeUndefined();
  });

  test("a job of a project at its limit waits; the org's other projects are not held behind it", async () => {
    expect((await setLimit('limited', { max_running: 0 })).status).toBe(200);
    // The deployment's one slot is free, but the project may run no job.
    const limited = await submit('Write p.md #ask', { project: 'limited' });
    const waiting = await queued(limited);
    expect(waiting.queue).toMatchObject({
      position: 1,
      reason: 'project_limit',
      project_slug: 'limited',
      project_limit: 0,
    });
    expect(await queuedEvents(limited)).toEqual([
      { position: 1, reason: 'project_limit', org_limit: null, total_limit: 1, project: 'limited', project_limit: 0 },
    ]);

    // Submitted after it in the same org, a job of another project takes the free slot.
    const open = await submit('Write q.md #ask', { project: 'open' });
    await holding(open);
    expect((await view(limited)).queue).toMatchObject({ state: 'queued', reason: 'project_limit' });
    expect(await projectsOfOrg()).toEqual(
      expect.arrayContaining([
        { project_slug: 'limited', running: 0, queued: 1, max_running: 0 },
        { project_slug: 'open', running: 1, queued: 0, max_running: null },
      ]),
    );

    // Raised, the project has room, but the deployment's one slot is taken: the job now waits for that.
    expect((await setLimit('limited', { max_running: 1 })).body).toMatchObject({ queued: 1, max_running: 1 });
    expect((await view(limited)).queue).toMatchObject({ state: 'queued', reason: 'total_limit', project_limit: null });
    await cancel(open);
    await holding(limited);
    await cancel(limited);
    await released(limited);
    expect((await setLimit('limited', { max_running: null })).status).toBe(200);
  });
});

test('a fork claims a slot like a submitted job: queued while another job holds it, started when it frees', async () => {
  const source = await submit('Write f.md');
  await eventually(async () => ((await view(source)).status === 'completed' ? true : undefined), {
    what: `${source} completed`,
    timeoutMs: 120_000,
  });
  await released(source);
  const holder = await submit('Write s.md #ask');
  await holding(holder);

  const res = await call<{ job_id: string }>(`/v1/jobs/${source}/fork`, {
    method: 'POST',
    body: { from: { sequence: 0 }, prompt_patch: 'Write f.md again #ask' },
  });
  expect(res.status).toBe(202);
  const fork = res.body.job_id;
  submitted.push({ jobId: fork, token: keel.token });
  expect((await queued(fork)).queue).toMatchObject({ position: 1, reason: 'total_limit' });

  await cancel(holder);
  await holding(fork);
  await cancel(fork);
  await released(fork);
});
