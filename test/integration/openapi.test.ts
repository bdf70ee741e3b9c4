import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { FastifyInstance } from 'fastify';
import { ApiError, apiClient, consoleClient, dataOf, identityClient } from '../../clients/client';
import { streamJobEvents } from '../../cli/event-stream';
import { projectRoot } from '../../config/paths';
import { undescribedSuccesses, undocumentedRoutes } from '../../http/openapi';
import { startConsoleStack, type ConsoleStack } from './console-bff-harness';

/**
 * Each service publishes an OpenAPI document generated from its route schemas, and renders it at /docs from assets it
 * serves itself. A route the document misses fails here: the list of routes is Fastify's own table.
 */
let stack: ConsoleStack;

beforeAll(async () => {
  stack = await startConsoleStack();
});

afterAll(async () => {
  await stack?.close();
});

const services = (): Array<[string, FastifyInstance, string]> => [
  ['ingest API', stack.keel.app, stack.keel.baseUrl],
  ['identity service', stack.identity, stack.identityUrl],
  ['console', stack.console, stack.consoleUrl],
];

interface Document {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
}

test.each(['ingest API', 'identity service', 'console'])('the %s documents every route it serves', async (name) => {
  const [, app, url] = services().find(([n]) => n === name)!;
  expect(app.routeTable.length).toBeGreaterThan(3);
  expect(undocumentedRoutes(app)).toEqual([]);

  const response = await fetch(`${url}/openapi.json`);
  expect(response.status).toBe(200);
  const document = (await response.json()) as Document;
  expect(document.openapi).toBe('3.0.3');
  expect(document.info.title).toMatch(/^Keel /);
  // Every operation states its error body: the shared error handler answers any of them with one.
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const statuses = Object.keys(operation.responses);
      expect({ op: `${method} ${path}`, has4xx: statuses.some((s) => /^4/.test(s)) }).toEqual({
        op: `${method} ${path}`,
        has4xx: true,
      });
    }
  }
  // …and what it answers on success: a JSON schema, a file's bytes, an event stream, a page or a redirect.
  expect(undescribedSuccesses(document)).toEqual([]);
});

test.each(['ingest API', 'identity service', 'console'])(
  "the %s's /openapi.json validates with @apidevtools/swagger-parser, as code generators check it first",
  async (name) => {
    const [, , url] = services().find(([n]) => n === name)!;
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as Parameters<
      typeof SwaggerParser.validate
    >[0];
    // validate() dereferences in place: it gets a document of its own.
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toMatchObject({ openapi: '3.0.3' });
  },
);

test('the retired /v1/localinf endpoints stay documented as the 410 they answer, with no QUERY operation', async () => {
  const document = (await (await fetch(`${stack.keel.baseUrl}/openapi.json`)).json()) as Document;
  for (const path of ['/v1/localinf', '/v1/localinf/{*}']) {
    expect(Object.keys(document.paths[path]!)).not.toContain('query');
    expect(document.paths[path]!.get!.responses['410']).toBeDefined();
  }
  const retired = await fetch(`${stack.keel.baseUrl}/v1/localinf/wake`, {
    headers: { authorization: `Bearer ${stack.keel.token}` },
  });
  expect(retired.status).toBe(410);
  expect(((await retired.json()) as { error: { code: string } }).error.code).toBe('localinf_retired');
});

test('a route added to a service and not to its document is reported', async () => {
  const app = stack.keel.app;
  // The check reads the route table; an entry the document lacks is what a route registered without the plugin gives.
  app.routeTable.push({ method: 'GET', url: '/v1/not-documented/:id' });
  try {
    expect(undocumentedRoutes(app)).toEqual(['GET /v1/not-documented/:id']);
  } finally {
    app.routeTable.pop();
  }
});

test('the ingest API documents request and response bodies from its zod schemas', async () => {
  const document = (await (await fetch(`${stack.keel.baseUrl}/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema: unknown }> };
          responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
        }
      >
    >;
  };
  const chat = document.paths['/v1/chat']!.post!;
  expect(chat.requestBody?.content['application/json']?.schema).toMatchObject({
    type: 'object',
    required: ['prompt'],
    properties: { prompt: { type: 'string', minLength: 1, maxLength: 32000 } },
  });
  expect(chat.responses['202']?.content?.['application/json']?.schema).toMatchObject({
    required: ['job_id', 'workflow_id', 'prompt_id', 'status'],
  });
  expect(chat.responses['400']?.content?.['application/json']?.schema).toMatchObject({
    properties: { error: { required: ['code', 'message'] } },
  });
});

test.each(['ingest API', 'identity service', 'console'])(
  'the %s renders its reference at /docs from assets it serves itself',
  async (name) => {
    const [, , url] = services().find(([n]) => n === name)!;
    const page = await fetch(`${url}/docs/`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThan(0);
    // Nothing is loaded from another host, and every asset the page names is served here.
    for (const source of sources) {
      expect(source).not.toMatch(/^(https?:)?\/\//);
      const asset = await fetch(new URL(source, `${url}/docs/`));
      expect({ source, status: asset.status }).toEqual({ source, status: 200 });
    }
  },
);

describe("the CLI's client, typed from the ingest API's document", () => {
  test('submits a job, lists it and streams it to its final event', async () => {
    const worker = await stack.startWorker();
    try {
      const client = apiClient(stack.keel.baseUrl, stack.keel.token);
      const job = dataOf(await client.POST('/v1/chat', { body: { prompt: 'Write typed.md that greets the reader' } }));
      expect(job.status).toBe('queued');

      const page = dataOf(await client.GET('/v1/workflows', { params: { query: { limit: '100' } } }));
      expect(page.workflows.map((wf) => wf.workflow_id)).toContain(job.workflow_id);

      const kinds: string[] = [];
      for await (const event of streamJobEvents({
        baseUrl: stack.keel.baseUrl,
        token: stack.keel.token,
        jobId: job.job_id,
      }))
        kinds.push(event.kind);
      expect(kinds.at(-1)).toBe('final');

      // `keel workflows` prints the same list through the same client.
      const root = projectRoot();
      const listed = await promisify(execFile)(
        process.execPath,
        [path.join(root, 'test/integration/ts-entry.js'), 'cli/keel.ts', 'workflows', '--limit', '100'],
        { cwd: root, env: { ...process.env, KEEL_API_URL: stack.keel.baseUrl, KEEL_TOKEN: stack.keel.token } },
      );
      expect(listed.stdout).toMatch(new RegExp(`^${job.workflow_id}\\t`, 'm'));
    } finally {
      await worker.stop();
    }
  });

  test('the identity service and the console have typed clients too, with a session cookie', async () => {
    const user = await stack.createUser({ email: `typed-${Date.now()}@example.test`, approved: true });
    const cookie = await stack.signIn(user.email);
    const session = dataOf(await consoleClient(stack.consoleUrl, cookie).GET('/api/session'));
    expect(session.user).toEqual({ id: user.id, email: user.email, role: 'user' });
    const budget = dataOf(await identityClient(stack.identityUrl, cookie).GET('/me/budget'));
    expect({ spent: budget.spentCents, over: budget.overBudget }).toEqual({ spent: 0, over: false });
  });

  test("a refusal becomes an ApiError with the API's code", async () => {
    const client = apiClient(stack.keel.baseUrl, stack.keel.token);
    const refused = await client.POST('/v1/chat', { body: { prompt: 'Write a.md', scenario: 'no-such-scenario' } });
    expect(() => dataOf(refused)).toThrow(ApiError);
    expect(() => dataOf(refused)).toThrow(/^400 unknown_scenario: /);
  });
});
