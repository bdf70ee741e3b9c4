import { createChatApp } from '../../chat-relay/chat-app';
import { signRequest } from '../../chat/signature';
import { createChatWebApi } from '../../chat-relay/web-api';
import { migrateIdentity } from '../../auth/migrate';
import { identityTables, ingestTables } from '../../db/qualified-tables';
import { startFakeChatWebApi, type FakeChatWebApi } from '../fakes/chat-web-api';
import { uniqueSuffix } from './env';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { recordJobCost } from './identity-harness';

/**
 * Team chat goes through the same admission as the API (jobs/admit.ts): a turn is rate limited per chat user and
 * refused over the monthly budget, with a reply in the thread saying why and no job started. Real API, Temporal dev
 * server, worker, PostgreSQL and Redis; the chat system is the local fake of its Web API.
 */
const SECRET = 'keel-admission-signing-secret';
const DEFAULT_BUDGET_CENTS = 500;
const USER_PER_MINUTE = 2;
let infra: Infrastructure;
let keel: KeelUnderTest;
let chat: FakeChatWebApi;
const identitySchema = `id_${uniqueSuffix()}`;

beforeAll(async () => {
  infra = await startInfrastructure();
  await migrateIdentity(infra.db.pool, identitySchema);
  chat = await startFakeChatWebApi();
  const api = createChatWebApi({ token: async () => chat.token, apiUrl: chat.apiUrl });
  keel = await startKeel({
    ...infra,
    chat: { app: createChatApp({ signingSecret: async () => SECRET, api, historyMessages: 0 }), api },
    rateLimits: { userPerMinute: USER_PER_MINUTE, orgPerMinute: 10_000 },
    budget: {
      pool: infra.db.pool,
      lookup: {
        identity: identityTables(identitySchema),
        ledger: ingestTables(infra.db.schema),
        defaultBudgetCents: DEFAULT_BUDGET_CENTS,
      },
    },
  });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await chat?.close();
  await infra?.db.pool.query(`DROP SCHEMA IF EXISTS "${identitySchema}" CASCADE`);
  await infra?.close();
});

let counter = 0;
const nextTs = () => `1710000${String(++counter).padStart(3, '0')}.000300`;

/** A direct message to Keel from `user`, signed as the chat system signs it; returns the message's ts. */
async function directMessage(user: string, text: string): Promise<string> {
  const ts = nextTs();
  const raw = JSON.stringify({
    token: 'deprecated-verification-token',
    team_id: chat.teamId,
    api_app_id: 'AKEEL',
    type: 'event_callback',
    event_id: `Ev${ts.replace(/\W/g, '')}`,
    event_time: 1_710_000_000,
    event: { type: 'message', channel: `D0${user}`, channel_type: 'im', user, team: chat.teamId, text, ts },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await fetch(`${keel.baseUrl}/v1/chatapp/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signRequest(SECRET, timestamp, raw),
    },
    body: raw,
  });
  expect(response.status).toBe(200);
  return ts;
}

async function jobsBy(user: string): Promise<number> {
  const { rows } = await infra.db.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM job_runs WHERE created_by = $1',
    [`chatapp:${user}`],
  );
  return rows[0]!.n;
}

const replyIn = (threadTs: string, includes: string) =>
  chat.waitFor('chat.postMessage', (args) => args.thread_ts === threadTs && String(args.text).includes(includes));

test('a chat person whose month-to-date spend reached the default budget is told so in the thread, and no job starts', async () => {
  const user = 'UBROKE';
  await recordJobCost(infra.db.pool, infra.db.schema, {
    userId: `chatapp:${user}`,
    costUsd: DEFAULT_BUDGET_CENTS / 100,
    createdAt: new Date(),
  });
  const ts = await directMessage(user, 'Write hello.md');
  const reply = await replyIn(ts, 'monthly budget');
  expect(String(reply.args.text)).toContain('$5.00');
  expect(String(reply.args.text)).toContain('Nothing was run');
  // The one job is the recorded spend; the message started none.
  expect(await jobsBy(user)).toBe(1);
});

test('a chat person under the budget starts a job (the same admission lets them through)', async () => {
  const user = 'UTHRIFTY';
  await recordJobCost(infra.db.pool, infra.db.schema, {
    userId: `chatapp:${user}`,
    costUsd: 4.98,
    createdAt: new Date(),
  });
  const ts = await directMessage(user, 'Write hello.md');
  await chat.waitFor('chat.postMessage', (args) => args.thread_ts === ts && String(args.text).startsWith('Working'));
  expect(await jobsBy(user)).toBe(2);
});

test('team-chat turns spend the per-user rate limit: past it the person is told to wait, and no job starts', async () => {
  const user = 'UFAST';
  for (let i = 0; i < USER_PER_MINUTE; i++) await directMessage(user, `Write file ${i}.md`);
  expect(await jobsBy(user)).toBe(USER_PER_MINUTE);
  const ts = await directMessage(user, 'Write one more.md');
  const reply = await replyIn(ts, 'rate limit');
  expect(String(reply.args.text)).toMatch(/per-user rate limit exceeded; retry in \d+ s/);
  expect(await jobsBy(user)).toBe(USER_PER_MINUTE);
});
