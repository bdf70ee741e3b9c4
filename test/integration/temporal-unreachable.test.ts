import { Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app';
import { createChatApp } from '../../chat-relay/chat-app';
import { createChatWebApi } from '../../chat-relay/web-api';
import { chatAppRoutes } from '../../chat/routes';
import { signRequest } from '../../chat/signature';
import { startFakeChatWebApi, type FakeChatWebApi } from '../fakes/chat-web-api';
import { loadApiConfig } from '../../api/config';
import { recordSubmission } from '../../db/jobs';
import { createToken } from '../../db/tokens';
import type { QueueStore } from '../../queue/queue-store';
import { TEMPORAL_CHANNEL_ARGS } from '../../temporal/connection';
import { uniqueSuffix } from './env';
import { apiDepsOver, createTestDatabase, createTestQueue, type TestDatabase } from './harness';

/**
 * The ingest API whose Temporal address refuses every connection (a closed port, as a stopped frontend is): what a
 * client sees is a 503 `queue_unavailable` JSON body with Retry-After, and nothing is stored. How soon it comes is
 * measured by bench/temporal-down.ts, not here; the fault drills stop a real Temporal under running jobs.
 */
let db: TestDatabase;
let queue: QueueStore;
let connection: Connection;
let api: FastifyInstance;
let token: string;
let chat: FakeChatWebApi;
const SIGNING_SECRET = 'keel-temporal-down-signing-secret';
const jobId = `job-${uniqueSuffix()}`;

beforeAll(async () => {
  db = await createTestDatabase();
  queue = await createTestQueue();
  chat = await startFakeChatWebApi();
  const chatApi = createChatWebApi({ token: async () => chat.token, apiUrl: chat.apiUrl });
  connection = Connection.lazy({ address: '127.0.0.1:1', channelArgs: TEMPORAL_CHANNEL_ARGS });
  const config = loadApiConfig({
    POSTGRES_DSN: 'postgres://unused/keel',
    TEMPORAL_ADDRESS: '127.0.0.1:1',
    TEMPORAL_DOWN_ANSWER_MS: '1500',
  });
  const deps = {
    ...apiDepsOver({ pool: db.pool, queue, connection }),
    temporalAnswerMs: config.TEMPORAL_DOWN_ANSWER_MS,
    chatApp: createChatApp({ signingSecret: async () => SIGNING_SECRET, api: chatApi, historyMessages: 0 }),
  };
  api = await buildApp(deps, { logger: false }, { routes: [chatAppRoutes(deps)] });
  token = (await createToken(db.pool, { userId: 'user-1', orgId: 'org-1', isAdmin: false })).token;
  // A job recorded while Temporal was still there (its start is not what this file checks).
  await recordSubmission(
    db.pool,
    {
      jobId,
      workflowId: `wf-${uniqueSuffix()}`,
      newWorkflow: true,
      promptId: `prompt-${uniqueSuffix()}`,
      prompt: 'Write earlier.md',
      createdBy: 'user-1',
      orgId: 'org-1',
      taskQueue: 'unused',
    },
    async () => undefined,
  );
});

afterAll(async () => {
  await api?.close();
  await connection?.close().catch(() => undefined);
  await queue?.close();
  await chat?.close();
  await db?.drop();
});

async function count(table: string): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}

const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  api.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

test('TEMPORAL_DOWN_ANSWER_MS is parsed with the API config; a value that is no duration is refused at start', () => {
  const base = { POSTGRES_DSN: 'postgres://unused/keel', TEMPORAL_ADDRESS: '127.0.0.1:1' };
  expect(loadApiConfig(base).TEMPORAL_DOWN_ANSWER_MS).toBe(2000);
  expect(() => loadApiConfig({ ...base, TEMPORAL_DOWN_ANSWER_MS: 'soon' })).toThrow(/TEMPORAL_DOWN_ANSWER_MS/);
  expect(() => loadApiConfig({ ...base, TEMPORAL_DOWN_ANSWER_MS: '0' })).toThrow(/TEMPORAL_DOWN_ANSWER_MS/);
});

test('a submission is 503 queue_unavailable with Retry-After, again and again, and stores no row', async () => {
  const before = await Promise.all(['workflows', 'job_runs', 'prompt_threads'].map(count));
  for (let i = 0; i < 3; i += 1) {
    const res = await call('POST', '/v1/chat', { prompt: `Write nowhere-${i}.md` });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBeTruthy();
    expect(res.json()).toEqual({
      error: { code: 'queue_unavailable', message: 'the job queue (Temporal) did not accept the job; retry' },
    });
  }
  expect(await Promise.all(['workflows', 'job_runs', 'prompt_threads'].map(count))).toEqual(before);
});

test('a cancel is refused 503 and recorded nowhere: the job is not marked cancelled, so the client retries it', async () => {
  const res = await call('POST', `/v1/jobs/${jobId}/cancel`);
  expect(res.statusCode).toBe(503);
  expect(res.json<{ error: unknown }>().error).toMatchObject({ code: 'queue_unavailable' });
  expect((await call('GET', `/v1/jobs/${jobId}`)).json()).toMatchObject({ status: 'queued' });
});

test('reads do not need Temporal', async () => {
  expect((await call('GET', '/v1/projects')).statusCode).toBe(200);
});

test('a team-chat message that would start a job is acknowledged (a redelivery would be a duplicate) and stores nothing', async () => {
  const before = await Promise.all(['workflows', 'job_runs', 'prompt_threads', 'chat_threads'].map(count));
  const ts = '1710000001.000100';
  const raw = JSON.stringify({
    token: 'deprecated-verification-token',
    team_id: chat.teamId,
    api_app_id: 'AKEEL',
    type: 'event_callback',
    event_id: 'EvTemporalDown1',
    event_time: 1_710_000_000,
    event: {
      type: 'message',
      channel: 'D0ALICE',
      channel_type: 'im',
      user: 'UALICE',
      team: chat.teamId,
      text: 'Write a haiku',
      ts,
    },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const res = await api.inject({
    method: 'POST',
    url: '/v1/chatapp/events',
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signRequest(SIGNING_SECRET, timestamp, raw),
    },
    payload: raw,
  });
  // The chat system wants its answer within 3 s; the person is told the turn failed when Temporal can take that post.
  expect([res.statusCode, res.json()]).toEqual([200, { ok: true }]);
  expect(await Promise.all(['workflows', 'job_runs', 'prompt_threads', 'chat_threads'].map(count))).toEqual(before);
});
