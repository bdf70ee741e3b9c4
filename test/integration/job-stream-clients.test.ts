import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import { createToken } from '../../db/tokens';
import { uniqueSuffix } from './env';
import { runJobToEnd, startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * `GET /v1/jobs/:id/stream` as HTTP clients come out of the box: curl, Node's `fetch` and `node:http` with only the
 * token header, which send `Accept: *\/*` or no Accept at all. Media ranges are negotiated by RFC 9110; only a client
 * that refuses `text/event-stream` gets 406, and the job's visibility answers before that for everyone else. The job
 * has finished before any of this, so every stream replays its events and closes after `final`, and curl ends.
 */
const run = promisify(execFile);
let infra: Infrastructure;
let keel: KeelUnderTest;
let jobId: string;
/** The job's event kinds in order, as the CLI's stream reader saw them. */
let expectedKinds: string[];
let stranger: string;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  await keel.startWorker();
  const job = await runJobToEnd(keel, 'Write hello.md that greets the reader');
  jobId = job.jobId;
  expectedKinds = job.events.map((event) => event.kind);
  stranger = (await createToken(infra.db.pool, { userId: 'eve', orgId: `org-other-${uniqueSuffix()}`, isAdmin: false }))
    .token;
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

const streamUrl = (id: string) => `${keel.baseUrl}/v1/jobs/${id}/stream`;

/** The `data:` lines of an event stream's body, parsed. */
function eventKinds(body: string): string[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => (JSON.parse(line.slice('data:'.length)) as { kind: string }).kind);
}

/** curl with only the token header (and `extra`): status line, headers and body as curl prints them with -i. */
async function curl(url: string, extra: string[] = [], token = keel.token) {
  const { stdout } = await run('curl', ['-sS', '-N', '-i', url, '-H', `Authorization: Bearer ${token}`, ...extra], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const [head = '', ...rest] = stdout.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head)?.[1]),
    head: head.toLowerCase(),
    body: rest.join('\r\n\r\n'),
  };
}

describe('a plain fetch', () => {
  test('with its default headers (Accept: */*) gets the whole stream', async () => {
    const response = await fetch(streamUrl(jobId), { headers: { authorization: `Bearer ${keel.token}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(eventKinds(await response.text())).toEqual(expectedKinds);
  });

  test.each(['*/*', 'text/*', 'text/event-stream', 'application/json, text/*;q=0.5', '*/*;q=0.1, application/json'])(
    'with Accept: %s gets the stream',
    async (accept) => {
      const response = await fetch(streamUrl(jobId), { headers: { authorization: `Bearer ${keel.token}`, accept } });
      expect(response.status).toBe(200);
      expect(eventKinds(await response.text()).at(-1)).toBe('final');
    },
  );

  test.each(['application/json', 'text/event-stream;q=0, */*'])(
    'with Accept: %s is 406 not_acceptable',
    async (accept) => {
      const response = await fetch(streamUrl(jobId), { headers: { authorization: `Bearer ${keel.token}`, accept } });
      expect(response.status).toBe(406);
      expect(await response.json()).toEqual({
        error: { code: 'not_acceptable', message: `this endpoint only produces text/event-stream (Accept: ${accept})` },
      });
    },
  );

  test('for an unknown job, or a job of another org, is 404 with the error body', async () => {
    for (const [id, token] of [
      [`job-${uniqueSuffix()}`, keel.token],
      [jobId, stranger],
    ] as const) {
      const response = await fetch(streamUrl(id), { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });
});

test('node:http with no Accept header at all gets the stream', async () => {
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.get(streamUrl(jobId), { headers: { authorization: `Bearer ${keel.token}` } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
  expect(status).toBe(200);
  expect(eventKinds(body).at(-1)).toBe('final');
});

describe('curl', () => {
  test('with only the token header gets the whole stream', async () => {
    const { status, head, body } = await curl(streamUrl(jobId));
    expect(status).toBe(200);
    expect(head).toContain('content-type: text/event-stream');
    expect(eventKinds(body)).toEqual(expectedKinds);
  });

  test('with the Accept header removed (-H "Accept:") gets the stream', async () => {
    const { status, body } = await curl(streamUrl(jobId), ['-H', 'Accept:']);
    expect(status).toBe(200);
    expect(eventKinds(body).at(-1)).toBe('final');
  });

  test('asking for JSON only is 406, and an unknown or other-org job 404', async () => {
    const refused = await curl(streamUrl(jobId), ['-H', 'Accept: application/json']);
    expect(refused.status).toBe(406);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'not_acceptable' } });
    expect((await curl(streamUrl(`job-${uniqueSuffix()}`))).status).toBe(404);
    expect((await curl(streamUrl(jobId), [], stranger)).status).toBe(404);
  });
});
