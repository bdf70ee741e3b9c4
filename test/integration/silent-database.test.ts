import http from 'node:http';
import { Writable } from 'node:stream';
import vm from 'node:vm';
import { Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { buildApp } from '../../api/app';
import { recordSubmission } from '../../db/jobs';
import { createPool } from '../../db/pool';
import { createToken } from '../../db/tokens';
import { appendEvent } from '../../events/store';
import { STREAM_INTERRUPTED_COMMENT } from '../../events/stream-comments';
import type { QueueStore } from '../../queue/queue-store';
import { TEMPORAL_CHANNEL_ARGS } from '../../temporal/connection';
import { testPostgresDsn, uniqueSuffix } from './env';
import { eventually } from './eventually';
import { apiDepsOver, createTestDatabase, createTestQueue, type TestDatabase } from './harness';
import { startSilenceableProxy, type SilenceableProxy } from './tcp-proxy';

/*
 * The ingest API over a PostgreSQL that falls silent: a TCP proxy between the API's pool and the test's PostgreSQL
 * stops forwarding packets and closes nothing, as a partition does. Before the pool had a statement and query timeout,
 * a request on a pooled connection hung for the whole outage. The API's pool here has a 1 s statement timeout (so the
 * client gives up after 3 s) and a 3 s connect timeout: settings, so the file need not wait the production defaults.
 */

const STATEMENT_TIMEOUT_MS = 1_000;

let db: TestDatabase;
let queue: QueueStore;
let connection: Connection;
let proxy: SilenceableProxy;
let apiPool: Pool;
let api: FastifyInstance;
let baseUrl: string;
let token: string;
const jobId = `job-${uniqueSuffix()}`;

/** Every line the API logged, parsed. */
interface LogLine {
  level: number;
  msg?: string;
}
const logLines: LogLine[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n')) if (line.trim()) logLines.push(JSON.parse(line) as LogLine);
    done();
  },
});

/** Node's process warnings (MaxListenersExceededWarning among them) emitted while this file runs. */
const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
/**
 * Node emits its warnings on the real `process`; jest hands the test a copy with listeners of its own, which never
 * hears them. Code run in this context's outer realm reaches the real one.
 */
const realProcess = vm.runInThisContext('process') as NodeJS.Process;

beforeAll(async () => {
  realProcess.on('warning', onWarning);
  db = await createTestDatabase();
  queue = await createTestQueue();
  const target = new URL(testPostgresDsn);
  proxy = await startSilenceableProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = new URL(testPostgresDsn);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  apiPool = createPool({
    dsn: proxied.toString(),
    max: 10,
    ssl: false,
    schema: db.schema,
    statementTimeoutMs: STATEMENT_TIMEOUT_MS,
    connectTimeoutMs: 3_000,
  });
  // Temporal is not what this file checks: a closed port.
  connection = Connection.lazy({ address: '127.0.0.1:1', channelArgs: TEMPORAL_CHANNEL_ARGS });
  api = await buildApp(apiDepsOver({ pool: apiPool, queue, connection }, { streamPollMs: 200, heartbeatMs: 60_000 }), {
    logger: { level: 'debug', stream: logStream },
  });
  baseUrl = await api.listen({ host: '127.0.0.1', port: 0 });
  token = (await createToken(db.pool, { userId: 'user-1', orgId: 'org-1', isAdmin: false })).token;
  // A job under way: one event stored, more to come, so its stream stays open.
  await recordSubmission(
    db.pool,
    {
      jobId,
      workflowId: `wf-${uniqueSuffix()}`,
      newWorkflow: true,
      promptId: `prompt-${uniqueSuffix()}`,
      prompt: 'Write silence.md',
      createdBy: 'user-1',
      orgId: 'org-1',
      taskQueue: 'unused',
    },
    async () => undefined,
  );
  await appendEvent(
    db.pool,
    { job_id: jobId, workflow_id: 'wf', prompt_id: 'prompt' },
    { key: 'started', kind: 'level_started', agent_role: 'L1', payload: { level: 'L1' } },
  );
});

afterAll(async () => {
  realProcess.off('warning', onWarning);
  await api?.close();
  await apiPool?.end();
  await proxy?.close();
  await connection?.close().catch(() => undefined);
  await queue?.close();
  await db?.drop();
});

afterEach(() => proxy.resume());

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { error?: { code: string; message: string } };
}

async function get(route: string): Promise<Answer> {
  const response = await fetch(`${baseUrl}${route}`, { headers: { authorization: `Bearer ${token}` } });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Answer['body'],
  };
}

/** Resolves once the database answers through the proxy again (connections cut by the silence are replaced). */
async function databaseBack(): Promise<void> {
  await eventually(async () => (await get(`/v1/jobs/${jobId}`)).status === 200, {
    what: 'the API to read the database again',
  });
}

/** An open job stream over node:http: what it received so far, whether it ended, and a way to close it. */
function openStream() {
  const stream = { text: '', ended: false, close: () => undefined as void };
  const request = http.get(`${baseUrl}/v1/jobs/${jobId}/stream`, {
    agent: false,
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
  });
  request.on('response', (response) => {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (stream.text += chunk));
    response.on('end', () => (stream.ended = true));
    response.on('error', () => undefined);
  });
  request.on('error', () => undefined);
  stream.close = () => void request.destroy();
  return stream;
}

test('a silent database: requests answer 503 database_unavailable with Retry-After, then 200 once it is back', async () => {
  // A pooled connection exists (the warm-up), so the next request is sent on it and waits for an answer.
  expect((await get(`/v1/jobs/${jobId}`)).status).toBe(200);
  proxy.silence();
  const onPooledConnection = await get(`/v1/jobs/${jobId}`);
  const onNewConnection = await get(`/v1/jobs/${jobId}`);
  for (const answer of [onPooledConnection, onNewConnection]) {
    expect(answer.status).toBe(503);
    expect(answer.body.error?.code).toBe('database_unavailable');
    expect(typeof answer.body.error?.message).toBe('string');
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  }
  proxy.resume();
  await databaseBack();
}, 120_000);

test('a stream cut by the silent database ends with its closing comment, and nothing is logged as an error', async () => {
  await databaseBack();
  const from = logLines.length;
  const stream = openStream();
  await eventually(() => stream.text.includes('data:'), { what: 'the first event on the stream' });
  proxy.silence();
  await eventually(() => stream.ended, { what: 'the stream to end', timeoutMs: 60_000 });
  expect(stream.text.trimEnd().split('\n').at(-1)).toBe(`: ${STREAM_INTERRUPTED_COMMENT}`);
  const serious = logLines.slice(from).filter((line) => line.level >= 50);
  expect(serious).toEqual([]);
  // The log says why, at warn.
  expect(logLines.slice(from).some((line) => line.level === 40 && /dependency failed/.test(line.msg ?? ''))).toBe(true);
}, 120_000);

test('25 streams open on one API: no MaxListenersExceededWarning; clients closing them is no warning in the log', async () => {
  await databaseBack();
  const from = logLines.length;
  const connections = () => new Promise<number>((resolve) => api.server.getConnections((_err, n) => resolve(n)));
  // fetch's kept-alive connections, which may close meanwhile but not grow: the streams are node:http's own.
  const before = await connections();
  const streams = Array.from({ length: 25 }, openStream);
  await eventually(() => streams.every((s) => s.text.includes('data:')), { what: 'every stream to get its event' });
  for (const s of streams) s.close();
  await eventually(async () => (await connections()) <= before, { what: 'the API to see every stream closed' });
  expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  expect(logLines.slice(from).filter((line) => line.level >= 40)).toEqual([]);
}, 120_000);
