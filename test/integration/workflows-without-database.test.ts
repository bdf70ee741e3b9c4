import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { buildAppWithoutDatabase } from '../../api/app-without-database';
import { queueWorkflows } from '../../api/workflow-directory';
import { createCacheCounterAllocator } from '../../db/ids';
import type { WorkflowListRow } from '../../db/workflow-list';
import type { QueueStore } from '../../queue/queue-store';
import { createTestQueue } from './harness';

/**
 * Keel without any database (KEEL_EMBEDDED_DB=off, no POSTGRES_DSN): the workflow resources live in the queue store
 * (real Redis here), the list honours `limit` with a synthetic cursor, and everything else says it needs a database.
 */
const DEV_TOKEN = 'keel_dev-token-for-the-no-database-test';

let queue: QueueStore;
let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  queue = await createTestQueue();
  app = await buildAppWithoutDatabase(
    {
      queue,
      ids: createCacheCounterAllocator(queue),
      devToken: DEV_TOKEN,
      rateLimits: { userPerMinute: 100_000, orgPerMinute: 100_000 },
    },
    { logger: false },
  );
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
  await queue?.close();
});

interface Reply {
  status: number;
  body: {
    workflows: Array<{ workflow_id: string; updated_at: string; hidden: boolean }>;
    next_cursor: string | null;
    workflow: { workflow_id: string; updated_at: string; created_by: string; status: string };
    workflow_id: string;
    updated_at: string;
    hidden: boolean;
    prompt_id: string;
    job_id: null;
    delivered: string;
    prompts: Array<{ prompt_id: string; prompt: string; delivered: string }>;
    error: { code: string; message: string };
  };
}

async function call(method: string, path: string, body?: unknown, token = DEV_TOKEN): Promise<Reply> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Reply['body'] };
}

/** Every page from the start, following next_cursor. */
async function walk(query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const reply: Reply = await call('GET', `/v1/workflows?${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(reply.status).toBe(200);
    ids.push(...reply.body.workflows.map((w) => w.workflow_id));
    cursor = reply.body.next_cursor;
    if (!cursor) return ids;
  }
  throw new Error('the list never ended');
}

test('creating a workflow and appending prompts keeps them in the queue store; no job runs', async () => {
  const created = await call('POST', '/v1/workflows', { prompt: 'Draft a plan', project_slug: 'ui' });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({
    workflow: { created_by: 'dev', status: 'pending', latest_job_id: null, project_slug: 'ui', hidden: false },
    job_id: null,
  });
  const id = created.body.workflow.workflow_id;
  const appended = await call('POST', `/v1/workflows/${id}/prompts`, { prompt: 'and a second step' });
  expect(appended.status).toBe(202);
  expect(appended.body).toMatchObject({ workflow_id: id, job_id: null, delivered: 'not_run' });
  const after = await call('GET', `/v1/workflows/${id}`);
  expect(after.body.updated_at > created.body.workflow.updated_at).toBe(true);
  expect((await call('GET', `/v1/workflows/${id}/prompts`)).body.prompts.map((p) => p.prompt)).toEqual([
    'Draft a plan',
    'and a second step',
  ]);

  expect((await call('POST', `/v1/workflows/${id}/hide`)).body).toEqual({ workflow_id: id, hidden: true });
  expect(await walk('limit=100')).not.toContain(id);
  expect(await walk('limit=100&include_hidden=true')).toContain(id);
  expect((await call('GET', `/v1/workflows/${id}`)).body.hidden).toBe(true);
});

test('the list honours limit, pages with a synthetic cursor, and refuses a cursor it did not issue', async () => {
  // Ten rows share one updated_at: the workflow_id tie-break (byte order, descending) decides among them.
  const store = queueWorkflows(queue);
  const rows: WorkflowListRow[] = Array.from({ length: 23 }, (_, i) => ({
    workflow_id: `wf-${5000 + i}`,
    project_slug: 'paging',
    created_by: 'dev',
    org_id: 'dev',
    hidden: false,
    scenario: 'build',
    updated_at: i < 10 ? '2026-01-01T00:00:00.000000Z' : `2026-01-01T00:00:${String(i).padStart(2, '0')}.000001Z`,
    latest_job_id: null,
    status: null,
  }));
  for (const row of rows) await store.put(row);
  const expected = [...rows]
    .sort((a, b) =>
      a.updated_at === b.updated_at
        ? Buffer.compare(Buffer.from(b.workflow_id), Buffer.from(a.workflow_id))
        : b.updated_at.localeCompare(a.updated_at),
    )
    .map((r) => r.workflow_id);

  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 30 }), async (limit) => {
      expect(await walk(`project_slug=paging&limit=${limit}`)).toEqual(expected);
    }),
    { numRuns: 15 },
  );
  const first = await call('GET', '/v1/workflows?project_slug=paging&limit=5');
  expect(first.body.workflows).toHaveLength(5);
  expect(first.body.next_cursor).toEqual(expect.any(String));
  expect((await call('GET', '/v1/workflows?project_slug=paging&limit=500')).body.workflows).toHaveLength(23);

  for (const cursor of ['bogus', Buffer.from('2026-01-01T00:00:00Z|wf-1').toString('base64url'), 'bzotMQ']) {
    const reply = await call('GET', `/v1/workflows?cursor=${cursor}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('invalid_cursor');
  }
});

test('other endpoints answer 503 database_required; an unknown token is 401', async () => {
  for (const [method, path] of [
    ['POST', '/v1/chat'],
    ['GET', '/v1/jobs/job-1'],
    ['GET', '/v1/projects'],
  ] as const) {
    const reply = await call(method, path, method === 'POST' ? { prompt: 'x' } : undefined);
    expect(reply.status).toBe(503);
    expect(reply.body.error.code).toBe('database_required');
  }
  expect((await call('GET', '/v1/workflows', undefined, 'keel_not-the-dev-token')).status).toBe(401);
  expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
});
