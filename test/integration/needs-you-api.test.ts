import { createToken } from '../../db/tokens';
import { uniqueSuffix } from './env';
import { eventually } from './eventually';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * The lists the console's "Needs you" inbox reads. GET /v1/questions over HTTP on the real stack (PostgreSQL, Temporal, a worker on the offline demo model): `#ask`
 * jobs ask, the list shows their questions across jobs (open, then answered with the answer and who gave it, or
 * unanswered once the job ended without one), filtered by project and state, paged with the API's cursor. And the
 * approvals list's `job_active`: a cancelled job's pending approval waits for nobody.
 */

let infra: Infrastructure;
let keel: KeelUnderTest;
const suffix = uniqueSuffix();

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

interface Question {
  job_id: string;
  call_id: string;
  project_slug: string | null;
  role: string;
  question: string;
  state: string;
  answer: string | null;
  answered_by: string | null;
  answered_at: string | null;
}
interface QuestionPage {
  questions: Question[];
  next_cursor: string | null;
}

async function call(path: string, options: { method?: string; json?: unknown; token?: string } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? keel.token}` };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const body: unknown = await response.json();
  return { status: response.status, body };
}

async function questions(query: string, token?: string): Promise<QuestionPage> {
  const response = await call(`/v1/questions?${query}`, { token });
  expect(response.status).toBe(200);
  return response.body as QuestionPage;
}

async function askIn(project: string): Promise<Question> {
  const submitted = await call('/v1/chat', {
    method: 'POST',
    json: { prompt: 'Write hello.md that greets the reader #ask', project_slug: project },
  });
  expect(submitted.status).toBe(202);
  const { job_id } = submitted.body as { job_id: string };
  return eventually(async () => (await questions(`job_id=${job_id}&state=open`)).questions[0], {
    what: `the open question of job ${job_id}`,
    intervalMs: 100,
  });
}

test('bad input is a 400 with the error code, never a silently unfiltered list', async () => {
  for (const query of ['state=waiting', 'stat=open', 'limit=lots', 'job_id=']) {
    const response = await call(`/v1/questions?${query}`);
    expect({ query, status: response.status, code: (response.body as { error: { code: string } }).error.code }).toEqual(
      { query, status: 400, code: 'invalid_request' },
    );
  }
  const cursor = await call('/v1/questions?cursor=not-one-of-ours');
  expect(cursor).toEqual({
    status: 400,
    body: { error: { code: 'invalid_cursor', message: expect.any(String) as string } },
  });
});

test('open questions across jobs, by project; answered with the answer and who gave it; unanswered once cancelled', async () => {
  const [red, blue] = [`red-${suffix}`, `blue-${suffix}`];
  for (const slug of [red, blue]) {
    expect((await call('/v1/projects', { method: 'POST', json: { name: slug, slug } })).status).toBe(201);
  }
  const first = await askIn(red);
  const second = await askIn(blue);
  expect(first).toMatchObject({ project_slug: red, state: 'open', answer: null, answered_by: null });
  expect(first.question.length).toBeGreaterThan(0);

  // Across jobs, newest first; one project's alone.
  const open = (await questions('state=open')).questions.map((q) => q.job_id);
  expect(open.indexOf(second.job_id)).toBeLessThan(open.indexOf(first.job_id));
  expect((await questions(`state=open&project_slug=${red}`)).questions.map((q) => q.job_id)).toEqual([first.job_id]);

  // Paged with the cursor: each question once.
  const page1 = await questions('limit=1');
  expect(page1.questions).toHaveLength(1);
  expect(page1.next_cursor).not.toBeNull();
  const page2 = await questions(`limit=1&cursor=${page1.next_cursor!}`);
  expect(page2.questions).toHaveLength(1);
  expect(page2.questions[0]!.job_id).not.toBe(page1.questions[0]!.job_id);

  // Another org's token sees none of them.
  const { token: outsider } = await createToken(infra.db.pool, {
    userId: `outsider-${suffix}`,
    orgId: `elsewhere-${suffix}`,
    isAdmin: false,
  });
  expect((await questions(`project_slug=${red}`, outsider)).questions).toEqual([]);

  const resumed = await call(`/v1/jobs/${first.job_id}/resume`, {
    method: 'POST',
    json: { call_id: first.call_id, answer: 'Greet them in French' },
  });
  expect(resumed.status).toBe(200);
  const [answered] = (await questions(`job_id=${first.job_id}`)).questions;
  expect(answered).toMatchObject({ state: 'answered', answer: 'Greet them in French', answered_by: 'dev' });
  expect(answered!.answered_at).not.toBeNull();
  expect((await questions(`state=open&project_slug=${red}`)).questions).toEqual([]);
  expect((await questions(`state=answered&project_slug=${red}`)).questions.map((q) => q.call_id)).toEqual([
    first.call_id,
  ]);

  expect((await call(`/v1/jobs/${second.job_id}/cancel`, { method: 'POST', json: {} })).status).toBe(202);
  await eventually(async () => (await questions(`job_id=${second.job_id}&state=unanswered`)).questions[0], {
    what: `job ${second.job_id}'s question unanswered after the cancel`,
    intervalMs: 100,
  });
}, 120_000);

test('job_active=true leaves out a pending approval whose job ended; a bad value is a 400', async () => {
  const submitted = await call('/v1/chat', {
    method: 'POST',
    json: { prompt: 'Write approved.md that greets the reader #approve' },
  });
  const { job_id } = submitted.body as { job_id: string };
  const pendingOf = async (query: string) =>
    ((await call(`/v1/approvals?job_id=${job_id}&status=pending${query}`)).body as { approvals: unknown[] }).approvals;
  await eventually(async () => (await pendingOf('&job_active=true')).length === 1, {
    what: `the pending approval of job ${job_id}`,
    intervalMs: 100,
  });
  expect((await call(`/v1/jobs/${job_id}/cancel`, { method: 'POST', json: {} })).status).toBe(202);
  await eventually(async () => (await pendingOf('&job_active=true')).length === 0, {
    what: `job ${job_id} ended, its approval no longer listed as waiting`,
    intervalMs: 100,
  });
  expect(await pendingOf('')).toHaveLength(1);
  for (const path of ['/v1/approvals?job_active=yes', '/v1/human-tasks?job_active=1']) {
    const response = await call(path);
    expect({ path, status: response.status, code: (response.body as { error: { code: string } }).error.code }).toEqual({
      path,
      status: 400,
      code: 'invalid_request',
    });
  }
}, 120_000);
