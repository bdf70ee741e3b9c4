import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createToken } from '../../db/tokens';
import type { QueueStore } from '../../queue/queue-store';
import { uniqueSuffix } from './env';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest, type TestDatabase } from './harness';
import { eventually } from './eventually';

/**
 * Bad input gets a clear 4xx JSON error (`{ error: { code, message } }`) and nothing is stored or started: no row in
 * projects / workflows / prompt_threads / job_runs and no Temporal workflow on the stack's task queue. No worker runs,
 * so every row and workflow that exists was put there by a request of this file.
 */

let infra: Infrastructure;
let temporal: TestWorkflowEnvironment;
let db: TestDatabase;
let queue: QueueStore;
let keel: KeelUnderTest;
/** Stacks built by single tests (other rate limits); closed in afterAll. */
const extraStacks: KeelUnderTest[] = [];
/** Job ids this file's valid submissions started; any other workflow on a task queue is a leak. */
const acceptedJobIds = new Set<string>();
const suffix = uniqueSuffix();

beforeAll(async () => {
  infra = await startInfrastructure();
  ({ temporal, db, queue } = infra);
  keel = await startKeel(infra);
});

afterAll(async () => {
  await Promise.allSettled(extraStacks.map((stack) => stack.close()));
  await keel?.close();
  await infra?.close();
});

interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

interface RequestOptions {
  method?: string;
  /** A bearer token; `null` sends no Authorization header. Defaults to the stack's admin token. */
  token?: string | null;
  /** Raw Authorization header value, overriding `token`. */
  authorization?: string;
  /** Serialized as JSON unless `rawBody` is given. */
  json?: unknown;
  rawBody?: string;
  contentType?: string;
  headers?: Record<string, string>;
  stack?: KeelUnderTest;
}

async function call(path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const stack = options.stack ?? keel;
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? stack.token : options.token;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  else if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.json !== undefined) body = JSON.stringify(options.json);
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(`${stack.baseUrl}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: kept as text so the assertion on the error shape fails with the body in view.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

function chat(json: unknown, options: RequestOptions = {}): Promise<ApiResponse> {
  return call('/v1/chat', { method: 'POST', json, ...options });
}

/** The API's error contract: a JSON object with exactly a code and a human-readable message. */
function expectError(response: ApiResponse, status: number, code?: string): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { error: { code: code ?? (expect.any(String) as string), message: expect.any(String) as string } },
  });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect((response.body as { error: { message: string } }).error.message).not.toBe('');
}

interface StoredCounts {
  projects: number;
  workflows: number;
  prompt_threads: number;
  job_runs: number;
}

async function storedCounts(): Promise<StoredCounts> {
  const { rows } = await db.pool.query<StoredCounts>(
    `SELECT (SELECT count(*) FROM projects)::int AS projects,
            (SELECT count(*) FROM workflows)::int AS workflows,
            (SELECT count(*) FROM prompt_threads)::int AS prompt_threads,
            (SELECT count(*) FROM job_runs)::int AS job_runs`,
  );
  return rows[0]!;
}

async function workflowsOnTaskQueue(taskQueue: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const wf of temporal.client.workflow.list({ query: `TaskQueue = "${taskQueue}"` }))
    ids.push(wf.workflowId);
  return ids;
}

/** Rows are as they were before the request, and the stack's task queue holds no workflow we did not accept. */
async function expectNothingStoredOrStarted(before: StoredCounts, stack: KeelUnderTest = keel): Promise<void> {
  expect(await storedCounts()).toEqual(before);
  const started = await workflowsOnTaskQueue(stack.taskQueue);
  expect(started.filter((id) => !acceptedJobIds.has(id))).toEqual([]);
}

/** A non-admin token of a user of this file's own. */
async function tokenFor(user: string, org: string): Promise<string> {
  const { token } = await createToken(db.pool, {
    userId: `${user}-${suffix}`,
    orgId: `${org}-${suffix}`,
    isAdmin: false,
  });
  return token;
}

async function submitValid(prompt: string, options: RequestOptions = {}) {
  const response = await chat({ prompt }, options);
  expect(response.status).toBe(202);
  const accepted = response.body as { job_id: string; workflow_id: string; prompt_id: string; status: string };
  acceptedJobIds.add(accepted.job_id);
  return accepted;
}

/** Polls `condition` until it holds, failing after a bounded wait instead of asserting on elapsed time. */

const unknownJob = 'job-00000000-0000-4000-8000-000000000000';

describe('authentication', () => {
  test('a request without Authorization is 401 unauthorized with a WWW-Authenticate challenge; nothing is stored', async () => {
    const before = await storedCounts();
    const response = await chat({ prompt: 'Write a.md' }, { token: null });
    expectError(response, 401, 'unauthorized');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await expectNothingStoredOrStarted(before);
  });

  test.each([
    ['a Basic header', 'Basic x'],
    ['Bearer with no token', 'Bearer'],
    ['Bearer with only spaces after it', 'Bearer    '],
    ['a token with no scheme', 'keel_sometoken'],
  ])('a malformed Authorization header (%s) is 401 unauthorized; nothing is stored', async (_name, authorization) => {
    const before = await storedCounts();
    const response = await chat({ prompt: 'Write a.md' }, { authorization });
    expectError(response, 401, 'unauthorized');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await expectNothingStoredOrStarted(before);
  });

  test('an unknown token is 401 unauthorized; nothing is stored', async () => {
    const before = await storedCounts();
    const response = await chat({ prompt: 'Write a.md' }, { token: 'keel_not-a-token-anyone-was-given' });
    expectError(response, 401, 'unauthorized');
    await expectNothingStoredOrStarted(before);
  });

  test('a revoked token is 401 unauthorized; nothing is stored', async () => {
    const { token, tokenId } = await createToken(db.pool, {
      userId: `revoked-${suffix}`,
      orgId: `org-a-${suffix}`,
      isAdmin: false,
    });
    // The token works while it is live.
    expectError(await call(`/v1/jobs/${unknownJob}`, { token }), 404, 'not_found');

    await db.pool.query('UPDATE api_tokens SET revoked_at = now() WHERE token_id = $1', [tokenId]);

    const before = await storedCounts();
    expectError(await chat({ prompt: 'Write a.md' }, { token }), 401, 'unauthorized');
    expectError(await call(`/v1/jobs/${unknownJob}`, { token }), 401, 'unauthorized');
    await expectNothingStoredOrStarted(before);
  });

  test('/healthz needs no token', async () => {
    const response = await call('/healthz', { token: null });
    expect(response).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});

describe('malformed POST /v1/chat bodies are 400 invalid_request; nothing is stored or started', () => {
  const cases: Array<[name: string, body: unknown]> = [
    ['no prompt', {}],
    ['an empty prompt', { prompt: '' }],
    ['a whitespace-only prompt', { prompt: ' \n\t  ' }],
    ['a prompt over 32,000 characters', { prompt: 'a'.repeat(32_001) }],
    ['a numeric prompt', { prompt: 42 }],
    ['a null prompt', { prompt: null }],
    ['an array prompt', { prompt: ['Write a.md'] }],
    ['a JSON array body', ['Write a.md']],
    ['a JSON string body', 'Write a.md'],
    ['metadata that is not an object', { prompt: 'Write a.md', metadata: 'cheap' }],
    ['a numeric project_slug', { prompt: 'Write a.md', project_slug: 7 }],
    ['an unknown top-level field', { prompt: 'Write a.md', model: 'gpt-5' }],
    ['a project_slug with capitals and spaces', { prompt: 'Write a.md', project_slug: 'My Project' }],
    ['a project_slug with a leading dash', { prompt: 'Write a.md', project_slug: '-site' }],
    ['a project_slug with a double dash', { prompt: 'Write a.md', project_slug: 'my--site' }],
    ['a project_slug over 64 characters', { prompt: 'Write a.md', project_slug: 'a'.repeat(65) }],
    ['a workflow_id without its prefix', { prompt: 'Write a.md', workflow_id: '12' }],
    ['a workflow_id with letters', { prompt: 'Write a.md', workflow_id: 'wf-abc' }],
    ['a prompt id as workflow_id', { prompt: 'Write a.md', workflow_id: 'pt-1' }],
    ['an upper-case workflow_id', { prompt: 'Write a.md', workflow_id: 'WF-1' }],
    ['an unknown metadata.model_tier', { prompt: 'Write a.md', metadata: { model_tier: 'ultra' } }],
  ];

  test.each(cases)('%s', async (_name, body) => {
    const before = await storedCounts();
    expectError(await chat(body), 400, 'invalid_request');
    await expectNothingStoredOrStarted(before);
  });

  test.each([
    ['truncated JSON', '{"prompt": "Write a.md"'],
    ['a trailing comma', '{"prompt": "Write a.md",}'],
    ['single-quoted JSON', "{'prompt': 'Write a.md'}"],
    ['plain text declared as JSON', 'Write a.md'],
    ['an empty body declared as JSON', ''],
  ])('invalid JSON text (%s)', async (_name, rawBody) => {
    const before = await storedCounts();
    expectError(await chat(undefined, { rawBody }), 400, 'invalid_request');
    await expectNothingStoredOrStarted(before);
  });

  test('no body at all', async () => {
    const before = await storedCounts();
    expectError(await chat(undefined), 400, 'invalid_request');
    await expectNothingStoredOrStarted(before);
  });

  test.each([
    ['a form', 'application/x-www-form-urlencoded', 'prompt=Write+a.md'],
    ['XML', 'application/xml', '<chat><prompt>Write a.md</prompt></chat>'],
  ])('a non-JSON content type (%s) is 415', async (_name, contentType, rawBody) => {
    const before = await storedCounts();
    expectError(await chat(undefined, { rawBody, contentType }), 415);
    await expectNothingStoredOrStarted(before);
  });

  test('a text/plain body, even one holding JSON, is 415', async () => {
    const before = await storedCounts();
    const response = await chat(undefined, { rawBody: '{"prompt": "Write a.md"}', contentType: 'text/plain' });
    expectError(response, 415);
    await expectNothingStoredOrStarted(before);
  });

  test('a body over the request size limit is 413', async () => {
    const before = await storedCounts();
    expectError(await chat({ prompt: 'a'.repeat(300 * 1024) }), 413);
    await expectNothingStoredOrStarted(before);
  });

  test('a prompt of exactly 32,000 characters is accepted (the limit is inclusive)', async () => {
    const before = await storedCounts();
    const accepted = await submitValid('a'.repeat(32_000));
    expect(accepted.status).toBe('queued');
    expect(await storedCounts()).toEqual({
      ...before,
      workflows: before.workflows + 1,
      prompt_threads: before.prompt_threads + 1,
      job_runs: before.job_runs + 1,
    });
  });
});

describe('unknown things are 404 not_found', () => {
  test.each([
    ['GET', `/v1/jobs/${unknownJob}`],
    ['GET', `/v1/jobs/${unknownJob}/stream`],
    ['POST', `/v1/jobs/${unknownJob}/cancel`],
    ['GET', `/v1/jobs/${unknownJob}/files`],
  ])('an unknown job: %s %s', async (method, path) => {
    const response = await call(path, { method, headers: { accept: 'text/event-stream, application/json' } });
    expectError(response, 404, 'not_found');
  });

  test('an unknown job cancel sets no cancel flag for that id', async () => {
    expectError(await call(`/v1/jobs/${unknownJob}/cancel`, { method: 'POST' }), 404, 'not_found');
    expect(await queue.hasFlag(`job:${unknownJob}:cancel`)).toBe(false);
  });

  test('a workflow_id that does not exist is 404 on POST /v1/chat and nothing is stored or started', async () => {
    const before = await storedCounts();
    expectError(await chat({ prompt: 'Write a.md', workflow_id: 'wf-999999' }), 404, 'not_found');
    await expectNothingStoredOrStarted(before);
  });

  test("another org's job and workflow do not exist for a non-admin token", async () => {
    const tokenA = await tokenFor('alice', 'org-a');
    const tokenB = await tokenFor('bob', 'org-b');
    const accepted = await submitValid('Write owned.md for org a', { token: tokenA });

    // Its own org sees it.
    expect(await call(`/v1/jobs/${accepted.job_id}`, { token: tokenA })).toMatchObject({
      status: 200,
      body: { job_id: accepted.job_id, status: 'queued' },
    });

    for (const [method, path] of [
      ['GET', `/v1/jobs/${accepted.job_id}`],
      ['GET', `/v1/jobs/${accepted.job_id}/stream`],
      ['GET', `/v1/jobs/${accepted.job_id}/files`],
      ['POST', `/v1/jobs/${accepted.job_id}/cancel`],
    ] as const) {
      const response = await call(path, {
        method,
        token: tokenB,
        headers: { accept: 'text/event-stream, application/json' },
      });
      expectError(response, 404, 'not_found');
    }
    // The refused cancel changed nothing.
    expect(await queue.hasFlag(`job:${accepted.job_id}:cancel`)).toBe(false);
    expect(await call(`/v1/jobs/${accepted.job_id}`, { token: tokenA })).toMatchObject({
      status: 200,
      body: { status: 'queued' },
    });

    // Continuing org a's workflow from org b is refused as if the workflow did not exist.
    const before = await storedCounts();
    expectError(
      await chat({ prompt: 'Add to it', workflow_id: accepted.workflow_id }, { token: tokenB }),
      404,
      'not_found',
    );
    await expectNothingStoredOrStarted(before);
  });

  test('an unknown route is a 404 JSON error', async () => {
    expectError(await call('/v1/nope'), 404, 'not_found');
    expectError(await call('/nope', { token: null }), 404, 'not_found');
  });
});

describe('rate limits', () => {
  async function stackWith(userPerMinute: number, orgPerMinute: number): Promise<KeelUnderTest> {
    const stack = await startKeel({ temporal, db, queue, rateLimits: { userPerMinute, orgPerMinute } });
    extraStacks.push(stack);
    return stack;
  }

  function expectRateLimited(response: ApiResponse): void {
    expectError(response, 429, 'rate_limited');
    const retryAfter = response.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  }

  test('the request over the per-user limit is 429 with Retry-After, and a refused chat stores and starts nothing', async () => {
    const stack = await stackWith(3, 1000);
    const token = await tokenFor('carol', 'org-c');
    const otherUser = await tokenFor('dave', 'org-c');

    for (let i = 0; i < 3; i++) expectError(await call(`/v1/jobs/${unknownJob}`, { stack, token }), 404, 'not_found');

    const before = await storedCounts();
    expectRateLimited(await chat({ prompt: 'Write limited.md' }, { stack, token }));
    expectRateLimited(await call(`/v1/jobs/${unknownJob}`, { stack, token }));
    await expectNothingStoredOrStarted(before, stack);
    expect(await workflowsOnTaskQueue(stack.taskQueue)).toEqual([]);

    // The window is the user's: another user of the same org is not limited by it.
    expectError(await call(`/v1/jobs/${unknownJob}`, { stack, token: otherUser }), 404, 'not_found');
  });

  test('two users of one org share the per-org window', async () => {
    const stack = await stackWith(1000, 3);
    const erin = await tokenFor('erin', 'org-e');
    const frank = await tokenFor('frank', 'org-e');
    const outsider = await tokenFor('grace', 'org-g');

    expectError(await call(`/v1/jobs/${unknownJob}`, { stack, token: erin }), 404, 'not_found');
    expectError(await call(`/v1/jobs/${unknownJob}`, { stack, token: frank }), 404, 'not_found');
    expectError(await call(`/v1/jobs/${unknownJob}`, { stack, token: erin }), 404, 'not_found');

    const before = await storedCounts();
    // Neither user alone has used 3 requests, but the org has.
    expectRateLimited(await chat({ prompt: 'Write limited.md' }, { stack, token: frank }));
    expectRateLimited(await chat({ prompt: 'Write limited.md' }, { stack, token: erin }));
    await expectNothingStoredOrStarted(before, stack);
    expect(await workflowsOnTaskQueue(stack.taskQueue)).toEqual([]);

    // Another org has a window of its own.
    expectError(await call(`/v1/jobs/${unknownJob}`, { stack, token: outsider }), 404, 'not_found');
  });
});

test('secrets and emails are redacted before the prompt is stored or queued', async () => {
  const email = 'jane.doe@example.com';
  const apiKey = 'sk-proj-abc123def456ghi789jkl012mno345';
  const accepted = await submitValid(`Write contact.md for ${email}; our key is ${apiKey}`);

  const { rows } = await db.pool.query<{ prompt: string }>('SELECT prompt FROM prompt_threads WHERE prompt_id = $1', [
    accepted.prompt_id,
  ]);
  expect(rows).toHaveLength(1);
  const stored = rows[0]!.prompt;
  expect(stored).toContain('[REDACTED:email]');
  expect(stored).toContain('[REDACTED:api_key]');
  expect(stored).not.toContain(email);
  expect(stored).not.toContain(apiKey);
  expect(stored).not.toContain('abc123def456');

  // What was queued in Temporal (the workflow input and its memo) carries the redacted text only.
  const handle = temporal.client.workflow.getHandle(accepted.job_id);
  const history = await handle.fetchHistory();
  const payloads = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
  expect(payloads.length).toBeGreaterThan(0);
  const input = payloads.map((p) => Buffer.from(p.data ?? new Uint8Array()).toString('utf8')).join('\n');
  expect(input).toContain('[REDACTED:email]');
  expect(input).not.toContain(email);
  expect(input).not.toContain(apiKey);
  const { memo } = await handle.describe();
  expect(JSON.stringify(memo)).not.toContain(email);
  expect(JSON.stringify(memo)).not.toContain(apiKey);

  // The task-queue listing the other tests rely on does see a workflow that was started.
  await eventually(async () => (await workflowsOnTaskQueue(keel.taskQueue)).includes(accepted.job_id), {
    what: 'the accepted job to be listed on the task queue',
  });
});

describe('a submission naming what does not exist is 400 now, not a failed job later; nothing is stored', () => {
  test.each([
    ['POST /v1/chat', '/v1/chat'],
    ['POST /v1/workflows', '/v1/workflows'],
  ])(
    'an unknown scenario on %s is 400 unknown_scenario listing the scenarios, with no server path',
    async (_n, path) => {
      const before = await storedCounts();
      const response = await call(path, {
        method: 'POST',
        json: { prompt: 'Write a.md', scenario: 'no-such-scenario' },
      });
      expectError(response, 400, 'unknown_scenario');
      const message = (response.body as { error: { message: string } }).error.message;
      expect(message).toContain('no-such-scenario');
      expect(message).toContain('build');
      expect(message).not.toMatch(/\/[a-z]+\//);
      await expectNothingStoredOrStarted(before);
    },
  );

  test.each([
    ['POST /v1/chat', '/v1/chat'],
    ['POST /v1/workflows', '/v1/workflows'],
  ])('an unknown project_slug on %s is 400 unknown_project and creates no project', async (_n, path) => {
    const slug = `never-created-${suffix}`;
    const before = await storedCounts();
    const response = await call(path, { method: 'POST', json: { prompt: 'Write a.md', project_slug: slug } });
    expectError(response, 400, 'unknown_project');
    expect((response.body as { error: { message: string } }).error.message).toContain(slug);
    await expectNothingStoredOrStarted(before);
    expectError(await call(`/v1/projects/${slug}`), 404, 'not_found');
  });

  test('a project created first is accepted, and the workflow is filed under it', async () => {
    const slug = `made-first-${suffix}`;
    expect((await call('/v1/projects', { method: 'POST', json: { name: 'Made first', slug } })).status).toBe(201);
    const response = await chat({ prompt: 'Write a.md', project_slug: slug });
    expect(response.status).toBe(202);
    const accepted = response.body as { job_id: string; workflow_id: string };
    acceptedJobIds.add(accepted.job_id);
    expect(await call(`/v1/workflows/${accepted.workflow_id}`)).toMatchObject({
      status: 200,
      body: { project_slug: slug },
    });
  });
});

describe('a NUL character anywhere is 400 naming the field; nothing reaches the database', () => {
  test.each([
    ['the prompt', { prompt: 'Write a.md\u0000' }, 'body.prompt'],
    ['a metadata value', { prompt: 'Write a.md', metadata: { note: 'a\u0000b' } }, 'body.metadata.note'],
    ['a metadata key', { prompt: 'Write a.md', metadata: { 'k\u0000': 'v' } }, 'body.metadata (a key)'],
  ])('in %s of POST /v1/chat', async (_name, json, field) => {
    const before = await storedCounts();
    const response = await chat(json);
    expectError(response, 400, 'invalid_request');
    expect((response.body as { error: { message: string } }).error.message).toContain(field);
    await expectNothingStoredOrStarted(before);
  });

  test.each([
    ['a job id in the path', 'GET', '/v1/jobs/job-%00x', 'params.id'],
    ['a workflow id in the path', 'GET', '/v1/workflows/wf-1%00', 'params.id'],
    ['a project slug in the path', 'GET', '/v1/projects/a%00b', 'params.slug'],
    ['a list cursor', 'GET', '/v1/workflows?cursor=%00', 'querystring.cursor'],
    ['a list filter', 'GET', '/v1/workflows?project_slug=a%00', 'querystring.project_slug'],
    ['a hide of a workflow id', 'POST', '/v1/workflows/wf-1%00/hide', 'params.id'],
  ])('in %s', async (_name, method, path, field) => {
    const response = await call(path, { method });
    expectError(response, 400, 'invalid_request');
    expect((response.body as { error: { message: string } }).error.message).toContain(field);
  });

  test('in a prompt appended to a workflow: 400, not a 503 asking to retry', async () => {
    const accepted = await submitValid('Write appended.md');
    const before = await storedCounts();
    const response = await call(`/v1/workflows/${accepted.workflow_id}/prompts`, {
      method: 'POST',
      json: { prompt: 'and then\u0000' },
    });
    expectError(response, 400, 'invalid_request');
    expect((response.body as { error: { message: string } }).error.message).toContain('body.prompt');
    await expectNothingStoredOrStarted(before);
  });
});

describe('Last-Event-ID outside the event sequences is 400 naming it', () => {
  test.each([
    ['2^31 in the header', { 'last-event-id': String(2 ** 31) }, '', 'Last-Event-ID'],
    ['a huge number in the header', { 'last-event-id': '99999999999999999999' }, '', 'Last-Event-ID'],
    ['a word in the header', { 'last-event-id': 'latest' }, '', 'Last-Event-ID'],
    ['2^31 in the query', {}, `?last_event_id=${2 ** 31}`, 'last_event_id'],
  ])('%s', async (_name, headers, query, field) => {
    const accepted = await submitValid('Write streamed.md');
    const response = await call(`/v1/jobs/${accepted.job_id}/stream${query}`, {
      headers: { accept: 'text/event-stream, application/json', ...headers },
    });
    expectError(response, 400, 'invalid_request');
    expect((response.body as { error: { message: string } }).error.message).toContain(field);
  });
});

describe('a body-less action sent as JSON with no body is accepted', () => {
  test.each(['hide', 'unhide'])('POST /v1/workflows/:id/%s with Content-Type: application/json', async (action) => {
    const accepted = await submitValid(`Write ${action}.md`);
    const response = await call(`/v1/workflows/${accepted.workflow_id}/${action}`, {
      method: 'POST',
      rawBody: '',
      contentType: 'application/json',
    });
    expect(response).toMatchObject({
      status: 200,
      body: { workflow_id: accepted.workflow_id, hidden: action === 'hide' },
    });
  });

  test('POST /v1/jobs/:id/cancel with Content-Type: application/json and no body', async () => {
    const accepted = await submitValid('Write cancelled.md');
    const response = await call(`/v1/jobs/${accepted.job_id}/cancel`, {
      method: 'POST',
      rawBody: '',
      contentType: 'application/json',
    });
    expect(response.status).toBe(202);
  });
});

describe("errors raised before a route's own code answer in the API's error shape", () => {
  test('a path parameter over the router limit is 414 with the error body', async () => {
    expectError(await call(`/v1/jobs/${'j'.repeat(300)}`), 414);
  });

  test('a job stream asked for as JSON only is 406 not_acceptable with the error body', async () => {
    const accepted = await submitValid('Write negotiated.md');
    expectError(
      await call(`/v1/jobs/${accepted.job_id}/stream`, { headers: { accept: 'application/json' } }),
      406,
      'not_acceptable',
    );
  });

  test('a JSON body that is not UTF-8 is 400 and nothing is stored', async () => {
    const before = await storedCounts();
    const response = await fetch(`${keel.baseUrl}/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"prompt":"Write '), Buffer.from([0xc3, 0x28]), Buffer.from('.md"}')]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: 'invalid_request', message: 'body: not valid UTF-8' } });
    await expectNothingStoredOrStarted(before);
  });
});
