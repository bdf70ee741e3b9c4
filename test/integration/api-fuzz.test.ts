import http from 'node:http';
import { APPEND_DEADLINE_MS } from '../../jobs/append-prompt';
import { RESUME_DEADLINE_MS } from '../../jobs/resume';
import { startConsoleStack, type ConsoleStack } from './console-bff-harness';
import { distinct, drawRequests, fuzz, loadSampler, type OpenApiDocument, type Target } from './openapi-fuzz';

/**
 * The three services as a client that read only their published documents would drive them: every operation, with a
 * valid credential and with none, with sampled and hostile input. No answer may be a server error, none may contradict
 * the document, and oversized, deeply nested or non-UTF-8 bodies are the client's error (4xx), answered promptly.
 */
let stack: ConsoleStack;
let targets: Target[];

/** Requests per operation and service; with ~100 operations that is several thousand requests. */
const PER_OPERATION = 24;
/** fast-check's seed: fixed so a failure replays; change it to explore other inputs. */
const SEED = 20261124;
/**
 * How long a request may go unanswered before it counts as a hang: past the longest wait the API bounds itself. A
 * follow-up prompt or an answer to a job that no worker takes (this stack runs none) waits for the job to accept it,
 * then is a 503 `job_unresponsive`; that is a bounded answer, not a hang.
 */
const HANG_MS = Math.max(APPEND_DEADLINE_MS, RESUME_DEADLINE_MS) + 5_000;

beforeAll(async () => {
  stack = await startConsoleStack();
  await loadSampler();
  const admin = await stack.createUser({
    email: `fuzz-admin-${Date.now()}@example.test`,
    role: 'admin',
    approved: true,
  });
  const cookie = await stack.signIn(admin.email);
  const document = async (url: string) => (await (await fetch(`${url}/openapi.json`)).json()) as OpenApiDocument;
  targets = [
    {
      name: 'ingest API',
      baseUrl: stack.keel.baseUrl,
      document: await document(stack.keel.baseUrl),
      credentials: { authorization: `Bearer ${stack.keel.token}` },
    },
    {
      name: 'identity service',
      baseUrl: stack.identityUrl,
      document: await document(stack.identityUrl),
      credentials: { cookie },
    },
    { name: 'console', baseUrl: stack.consoleUrl, document: await document(stack.consoleUrl), credentials: { cookie } },
  ];
});

afterAll(async () => {
  await stack?.close();
});

test('every operation of every service, with and without credentials: no 5xx, no answer outside the document', async () => {
  const requests = drawRequests(targets, PER_OPERATION, SEED);
  const report = await fuzz(requests, { concurrency: 6, timeoutMs: HANG_MS });
  // The counts a reader of the test output wants; the assertions below are what fails the run.
  process.stdout.write(
    `api fuzz: ${report.requests} requests over ${report.operations} operations; by status ${JSON.stringify(report.byStatus)}; ` +
      `authenticated 2xx per service ${JSON.stringify(report.authenticatedSuccesses)}; ` +
      `${report.serverErrors.length} server errors, ${report.schemaViolations.length} schema violations, ${report.hangs.length} hangs\n`,
  );
  expect(report.requests).toBeGreaterThanOrEqual(2000);
  // Every service let the credentialed half in somewhere, so it was fuzzed past its authentication.
  for (const target of targets) expect(report.authenticatedSuccesses[target.name]).toBeGreaterThan(10);
  expect(distinct(report.serverErrors)).toEqual([]);
  expect(distinct(report.schemaViolations)).toEqual([]);
  expect(distinct(report.hangs)).toEqual([]);
  // Several thousand requests take about a minute alone; beside the other suites (`npm test` runs files in parallel)
  // they take longer, and the default 120 s would fail a run with nothing wrong. A hang still fails, per request.
}, 300_000);

/** A raw request, so a body can be any bytes and any size; resolves with the status, or the transport's failure. */
function raw(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | (() => AsyncGenerator<Buffer>),
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${path}`, { method: 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      response.on('error', reject);
    });
    request.setTimeout(30_000, () => request.destroy(new Error('no answer within 30 s')));
    // The server may answer (413) and close before the whole body is sent; the answer is what counts.
    request.on('error', (err) => (request.writableEnded ? undefined : reject(err)));
    if (Buffer.isBuffer(body)) {
      request.end(body);
      return;
    }
    void (async () => {
      for await (const chunk of body()) {
        if (request.destroyed) return;
        if (!request.write(chunk)) await new Promise((r) => request.once('drain', r));
      }
      request.end();
    })().catch(reject);
  });
}

const MB = 1024 * 1024;

function* chunks(total: number): Generator<Buffer> {
  const piece = Buffer.alloc(64 * 1024, 'a');
  for (let sent = 0; sent < total; sent += piece.length) yield piece;
}

const abusive: Array<
  [string, (headers: Record<string, string>) => [Record<string, string>, Buffer | (() => AsyncGenerator<Buffer>)]]
> = [
  ['a 5 MB body with its length', (h) => [{ ...h, 'content-length': String(5 * MB) }, Buffer.alloc(5 * MB, 'a')]],
  [
    'a 50 MB body sent chunked',
    (h) => [
      { ...h, 'transfer-encoding': 'chunked' },
      async function* () {
        yield* chunks(50 * MB);
      },
    ],
  ],
  ['JSON nested 100,000 deep', (h) => [h, Buffer.from(`{"prompt":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)]],
  [
    'JSON nested 20,000 deep inside a free-form field',
    (h) => [h, Buffer.from(`{"prompt":"hi","metadata":{"x":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}}`)],
  ],
  [
    'invalid UTF-8 in a string',
    (h) => [
      h,
      Buffer.concat([Buffer.from('{"prompt":"Write a'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('.md"}')]),
    ],
  ],
];

const endpoints = (): Array<[string, string, string, Record<string, string>]> => [
  ['ingest API', stack.keel.baseUrl, '/v1/chat', { authorization: `Bearer ${stack.keel.token}` }],
  ['identity service', stack.identityUrl, '/api/auth/sign-in/email', {}],
  ['console', stack.consoleUrl, '/api/v1/chat', {}],
];

describe.each(['ingest API', 'identity service', 'console'])('the %s refuses abusive bodies with a 4xx', (service) => {
  test.each(abusive)('%s', async (_name, make) => {
    const [, baseUrl, path, auth] = endpoints().find(([name]) => name === service)!;
    const [headers, body] = make({ ...auth, 'content-type': 'application/json' });
    const answer = await raw(baseUrl, path, headers, body);
    expect({ status: answer.status >= 400 && answer.status < 500, body: answer.body.slice(0, 200) }).toEqual({
      status: true,
      body: expect.stringContaining('"error"') as string,
    });
  });
});
