import { buildApp } from '../../api/app';
import { chatAppRoutes } from '../../chat/routes';
import { createChatApp } from '../../chat-relay/chat-app';
import { signRequest } from '../../chat/signature';
import { createChatWebApi } from '../../chat-relay/web-api';
import { claimChatThread, listChatThreadsOfUser, recordChatTurn, releaseChatThread } from '../../db/chat-threads';
import { listEventsAfter } from '../../events/store';
import fs from 'node:fs/promises';
import path from 'node:path';
import { migrate } from '../../db/migrate';
import type { RunningWorker } from '../../temporal/worker';
import { startFakeChatWebApi, type FakeChatWebApi } from '../fakes/chat-web-api';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { eventually } from './eventually';

/**
 * The team-chat integration through its two request URLs, against the real API, Temporal dev server, worker,
 * PostgreSQL and Redis. The chat system is a local server speaking its Web API (test/fakes/chat-web-api.ts); what Keel
 * posts there is what a person in the thread would see.
 */
const SECRET = 'keel-test-signing-secret';
let infra: Infrastructure;
let keel: KeelUnderTest;
let chat: FakeChatWebApi;
let worker: RunningWorker;

beforeAll(async () => {
  infra = await startInfrastructure();
  chat = await startFakeChatWebApi();
  const api = createChatWebApi({ token: chat.token, apiUrl: chat.apiUrl });
  keel = await startKeel({
    ...infra,
    chat: { app: createChatApp({ signingSecret: async () => SECRET, api, historyMessages: 20 }), api },
  });
  worker = await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await chat?.close();
  await infra?.close();
});

let counter = 0;
/** A fresh message ts (and event id) per call, so tests never collide. */
const nextTs = () => `1700000${String(++counter).padStart(3, '0')}.000200`;

interface SendOptions {
  secret?: string;
  timestamp?: number;
  retryNum?: number;
  contentType?: string;
  tamper?: (raw: string) => string;
}

async function send(path: string, raw: string, options: SendOptions = {}) {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = signRequest(options.secret ?? SECRET, timestamp, raw);
  return fetch(`${keel.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': options.contentType ?? 'application/json',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signature,
      ...(options.retryNum !== undefined
        ? { 'x-slack-retry-num': String(options.retryNum), 'x-slack-retry-reason': 'http_timeout' }
        : {}),
    },
    body: options.tamper ? options.tamper(raw) : raw,
  });
}

type MessageFields = Record<string, unknown> & { ts?: string; user?: string; thread_ts?: string };

/** An Events API delivery of a message event, as the chat system sends it. */
function delivery(fields: MessageFields, eventId = `Ev${fields.ts ?? nextTs()}`) {
  const ts = fields.ts ?? nextTs();
  return {
    token: 'deprecated-verification-token',
    team_id: chat.teamId,
    api_app_id: 'AKEEL',
    type: 'event_callback',
    event_id: eventId.replace(/\W/g, ''),
    event_time: 1_700_000_000,
    event: { type: 'message', channel: 'C0GENERAL', user: 'UALICE', team: chat.teamId, text: 'hello', ts, ...fields },
  };
}

const sendEvent = (body: unknown, options: SendOptions = {}) =>
  send('/v1/chatapp/events', JSON.stringify(body), options);

async function pressButton(payload: Record<string, unknown>) {
  const raw = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  return send('/v1/chatapp/interactions', raw, { contentType: 'application/x-www-form-urlencoded' });
}

async function jobsBy(user: string): Promise<Array<{ job_id: string; workflow_id: string; status: string }>> {
  const { rows } = await infra.db.pool.query<{ job_id: string; workflow_id: string; status: string }>(
    'SELECT job_id, workflow_id, status FROM job_runs WHERE created_by = $1 ORDER BY created_at',
    [`chatapp:${user}`],
  );
  return rows;
}

async function threadRow(channel: string, threadTs: string) {
  const { rows } = await infra.db.pool.query('SELECT * FROM chat_threads WHERE channel = $1 AND thread_ts = $2', [
    channel,
    threadTs,
  ]);
  return rows[0] as { workflow_id: string; user_id: string | null; last_job_id: string } | undefined;
}

const inThread = (threadTs: string, text?: (t: string) => boolean) => (args: Record<string, unknown>) =>
  args.thread_ts === threadTs && (!text || text(String(args.text)));

/** Who answered the job's questions, as the inbox reads it (question_answers). */
async function answersOf(jobId: string) {
  const { rows } = await infra.db.pool.query<{ answer: string; answered_by: string }>(
    'SELECT answer, answered_by FROM question_answers WHERE job_id = $1 ORDER BY answered_at',
    [jobId],
  );
  return rows;
}

/** The final answer of a turn: the post after the job's terminal event (its text starts with the summary). */
const finalAnswer = (threadTs: string) =>
  chat.waitFor(
    'chat.postMessage',
    inThread(
      threadTs,
      (t) =>
        !t.startsWith('Working') &&
        !t.startsWith('Approval') &&
        !t.startsWith('Question') &&
        !t.startsWith("I'm still"),
    ),
  );

describe('request signature', () => {
  test('a signed url_verification answers the challenge', async () => {
    const response = await sendEvent({ type: 'url_verification', token: 'x', challenge: 'chal-123' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: 'chal-123' });
  });

  test('another secret, a changed byte and a stale timestamp are 401, and nothing is stored', async () => {
    const user = 'USIGNED';
    const body = delivery({ channel: 'D0ALICE', channel_type: 'im', user, text: '/help' });
    for (const options of [
      { secret: 'some-other-secret' },
      { tamper: (raw: string) => raw.replace('/help', '/helq') },
      { timestamp: Math.floor(Date.now() / 1000) - 5 * 60 - 5 },
    ]) {
      const response = await sendEvent(body, options);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
    const unsigned = await fetch(`${keel.baseUrl}/v1/chatapp/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(unsigned.status).toBe(401);
    expect(await jobsBy(user)).toEqual([]);
  });

  test('with the signing secret unset every request is 401, validly signed or not', async () => {
    const deps = { ...keel.deps, chatApp: createChatApp({ historyMessages: 0 }) };
    const app = await buildApp(deps, {}, { routes: [chatAppRoutes(deps)] });
    try {
      const raw = JSON.stringify({ type: 'url_verification', challenge: 'c' });
      const timestamp = String(Math.floor(Date.now() / 1000));
      for (const url of ['/v1/chatapp/events', '/v1/chatapp/interactions']) {
        const response = await app.inject({
          method: 'POST',
          url,
          headers: {
            'content-type': 'application/json',
            'x-slack-request-timestamp': timestamp,
            'x-slack-signature': signRequest(SECRET, timestamp, raw),
          },
          payload: raw,
        });
        expect(response.statusCode).toBe(401);
      }
    } finally {
      await app.close();
    }
  });

  test('interactions signed with another secret are 401 and decide nothing', async () => {
    const raw = new URLSearchParams({ payload: JSON.stringify({ type: 'block_actions' }) }).toString();
    const response = await send('/v1/chatapp/interactions', raw, {
      secret: 'some-other-secret',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(response.status).toBe(401);
  });

  test('an event type Keel does not handle is acknowledged and ignored', async () => {
    const body = { ...delivery({}), event: { type: 'reaction_added', user: 'UALICE', reaction: 'tada' } };
    expect((await sendEvent(body)).status).toBe(200);
  });

  test('a signed body that is not a valid delivery is a 400 and stores nothing', async () => {
    expect((await send('/v1/chatapp/events', '{not json')).status).toBe(400);
    const response = await sendEvent({ type: 'event_callback', team_id: chat.teamId, event: { type: 'message' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_request' } });
    expect((await pressButton({ type: 'block_actions', actions: [] })).status).toBe(400);
  });
});

describe('triage', () => {
  /** Sends the delivery, expects the acknowledgement, and returns the jobs its author has afterwards. */
  async function deliver(fields: MessageFields, options: SendOptions = {}) {
    const response = await sendEvent(delivery(fields), options);
    expect(response.status).toBe(200);
    return jobsBy(fields.user ?? 'UALICE');
  }

  test('a direct message starts a job and maps its thread', async () => {
    const ts = nextTs();
    const jobs = await deliver({ channel: 'D0DM', channel_type: 'im', user: 'UDM', text: '/help', ts });
    expect(jobs).toHaveLength(1);
    expect(await threadRow('D0DM', ts)).toMatchObject({ user_id: 'UDM', last_job_id: jobs[0]!.job_id });
  });

  test('a mention of the bot in a channel starts a job', async () => {
    const jobs = await deliver({ type: 'app_mention', user: 'UMENTION', text: `<@${chat.botUserId}> /help` });
    expect(jobs).toHaveLength(1);
  });

  test('a reply in a thread with a conversation starts the next job in the same workflow', async () => {
    const ts = nextTs();
    const [first] = await deliver({ channel: 'C0REPLY', user: 'UREPLY', text: `<@${chat.botUserId}> /help`, ts });
    await finalAnswer(ts);
    const jobs = await deliver({ channel: 'C0REPLY', user: 'UREPLY', text: '/echo again', thread_ts: ts });
    expect(jobs).toHaveLength(2);
    expect(jobs[1]!.workflow_id).toBe(first!.workflow_id);
    expect(await threadRow('C0REPLY', ts)).toMatchObject({ last_job_id: jobs[1]!.job_id });
  });

  test.each<[string, MessageFields]>([
    ['a bot post (bot id present)', { bot_id: 'BOTHER', channel_type: 'im' }],
    ["the bot's own post", { user: 'UKEELBOT', channel_type: 'im' }],
    ["the chat system's built-in bot (no bot id)", { user: 'USLACKBOT', channel_type: 'im' }],
    ['a message with files', { files: [{ id: 'F1' }], channel_type: 'im' }],
    ['a message with attachments', { attachments: [{ fallback: 'x' }], channel_type: 'im' }],
    ['a message with a subtype', { subtype: 'message_changed', channel_type: 'im' }],
    ['an author of another workspace', { user_team: 'TOTHER', team: 'TOTHER', channel_type: 'im' }],
    ['a bare mention with nothing to do', { type: 'app_mention', text: '<@UKEELBOT>' }],
    ['a top-level channel message that does not mention the bot', {}],
    ['a reply in a thread Keel has no conversation in', { thread_ts: '1600000000.000100' }],
  ])('drops %s silently', async (_name, fields) => {
    const user = fields.user === undefined ? `UDROP${++counter}` : undefined;
    const ts = nextTs();
    const jobs = await deliver({ text: '/help', ts, channel: 'C0DROP', ...(user ? { user } : {}), ...fields });
    expect(jobs).toEqual([]);
    // Nothing stored and nothing started: no thread, so nothing could ever be posted for it.
    expect(await threadRow('C0DROP', ts)).toBeUndefined();
    expect(await threadRow('C0DROP', fields.thread_ts ?? ts)).toBeUndefined();
  });

  test('drops an author whose workspace users.info names as another', async () => {
    chat.addUser('UGUEST', 'TGUEST');
    const jobs = await deliver({ user: 'UGUEST', team: undefined, channel_type: 'im', text: '/help' });
    expect(jobs).toEqual([]);
    expect(chat.callsOf('users.info').some((c) => c.args.user === 'UGUEST')).toBe(true);
  });

  test('a duplicate delivery is ignored: a retry of the event, and the same message as a mention', async () => {
    const ts = nextTs();
    const body = delivery({ user: 'UDUP', text: `<@${chat.botUserId}> /help`, ts });
    expect((await sendEvent(body)).status).toBe(200);
    expect((await sendEvent(body, { retryNum: 1 })).status).toBe(200);
    const asMention = delivery(
      { user: 'UDUP', type: 'app_mention', text: `<@${chat.botUserId}> /help`, ts },
      `EvMention${ts}`,
    );
    expect((await sendEvent(asMention)).status).toBe(200);
    expect(await jobsBy('UDUP')).toHaveLength(1);
  });
});

describe('turns', () => {
  test('progress is one message updated in place, then the summary and the created files', async () => {
    const ts = nextTs();
    const response = await sendEvent(
      delivery({
        channel: 'D0PROGRESS',
        channel_type: 'im',
        user: 'UPROG',
        text: 'Write hello.md that greets the reader',
        ts,
      }),
    );
    expect(response.status).toBe(200);
    const final = await finalAnswer(ts);
    expect(String(final.args.text)).toContain('Created files: hello.md');
    const progress = chat
      .callsOf('chat.postMessage')
      .filter((c) => inThread(ts, (t) => t.startsWith('Working on it'))(c.args));
    expect(progress).toHaveLength(1);
    const updates = chat.callsOf('chat.update').filter((c) => c.args.channel === 'D0PROGRESS');
    expect(updates.map((c) => String(c.args.text))).toContain('Done.');
    expect(updates.some((c) => String(c.args.text).includes('L4.executor'))).toBe(true);
    const [job] = await jobsBy('UPROG');
    expect(job!.status).toBe('completed');
  });

  test('four near-simultaneous replies in a thread start exactly one turn; the other three hear Keel is still working', async () => {
    const ts = nextTs();
    await sendEvent(delivery({ channel: 'C0RACE', user: 'URACE', text: `<@${chat.botUserId}> /help`, ts }));
    await finalAnswer(ts);
    const replies = await Promise.all(
      ['one', 'two', 'three', 'four'].map((word) =>
        sendEvent(delivery({ channel: 'C0RACE', user: 'URACE', text: `/echo ${word}`, thread_ts: ts })),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await jobsBy('URACE')).toHaveLength(2);
    const busy = await chat.waitForCount(
      'chat.postMessage',
      inThread(ts, (t) => t.startsWith("I'm still working on your previous message")),
      3,
    );
    expect(busy).toHaveLength(3);
  });

  test('a message while a turn runs gets the still-working reply and starts nothing', async () => {
    const ts = nextTs();
    await sendEvent(
      delivery({ channel: 'C0BUSY', user: 'UBUSY', text: `<@${chat.botUserId}> Write a.md #approve`, ts }),
    );
    await chat.waitFor(
      'chat.postMessage',
      inThread(ts, (t) => t.startsWith('Approval needed')),
    );
    await sendEvent(delivery({ channel: 'C0BUSY', user: 'UBUSY', text: 'are you done?', thread_ts: ts }));
    await chat.waitFor(
      'chat.postMessage',
      inThread(ts, (t) => t.startsWith("I'm still working")),
    );
    expect(await jobsBy('UBUSY')).toHaveLength(1);
  });

  test("with the workflow's follow-up policy set, a message while a turn runs follows it instead of the busy reply", async () => {
    const ts = nextTs();
    await sendEvent(
      delivery({ channel: 'C0POLICY', user: 'UPOLICY', text: `<@${chat.botUserId}> Write a.md #approve`, ts }),
    );
    await chat.waitFor(
      'chat.postMessage',
      inThread(ts, (t) => t.startsWith('Approval needed')),
    );
    const [first] = await jobsBy('UPOLICY');
    // `reject` keeps the spec's reply in a thread.
    await infra.db.pool.query("UPDATE workflows SET follow_up_policy = 'reject' WHERE workflow_id = $1", [
      first!.workflow_id,
    ]);
    await sendEvent(delivery({ channel: 'C0POLICY', user: 'UPOLICY', text: 'are you done?', thread_ts: ts }));
    await chat.waitFor(
      'chat.postMessage',
      inThread(ts, (t) => t.startsWith("I'm still working")),
    );
    expect(await jobsBy('UPOLICY')).toHaveLength(1);

    // `enqueue`: the message starts the thread's next job, queued behind the one waiting for its approval.
    await infra.db.pool.query("UPDATE workflows SET follow_up_policy = 'enqueue' WHERE workflow_id = $1", [
      first!.workflow_id,
    ]);
    const response = await sendEvent(
      delivery({ channel: 'C0POLICY', user: 'UPOLICY', text: 'then write b.md', thread_ts: ts }),
    );
    expect(response.status).toBe(200);
    const jobs = await jobsBy('UPOLICY');
    expect(jobs).toHaveLength(2);
    expect(jobs[1]).toMatchObject({ workflow_id: first!.workflow_id, status: 'queued' });
    const { rows } = await infra.db.pool.query<{ follows_job_id: string }>(
      'SELECT follows_job_id FROM job_runs WHERE job_id = $1',
      [jobs[1]!.job_id],
    );
    expect(rows[0]!.follows_job_id).toBe(first!.job_id);
    expect(await threadRow('C0POLICY', ts)).toMatchObject({ last_job_id: jobs[1]!.job_id });
  });
});

describe('people in the loop', () => {
  test('an approval is decided by its button, through the decide path, recording who decided', async () => {
    const ts = nextTs();
    await sendEvent(
      delivery({ channel: 'D0APPROVE', channel_type: 'im', user: 'UBOSS', text: 'Write hello.md #approve', ts }),
    );
    const request = await chat.waitFor(
      'chat.postMessage',
      inThread(ts, (t) => t.startsWith('Approval needed')),
    );
    const buttons = (
      request.args.blocks as Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }>
    ).find((b) => b.type === 'actions')!.elements!;
    const approve = buttons.find((b) => b.action_id === 'keel_approve')!;
    const press = {
      type: 'block_actions',
      user: { id: 'UBOSS', team_id: chat.teamId },
      team: { id: chat.teamId },
      channel: { id: 'D0APPROVE' },
      container: { type: 'message', message_ts: '1800000000.000100', channel_id: 'D0APPROVE', thread_ts: ts },
      actions: [{ type: 'button', action_id: approve.action_id, value: approve.value, block_id: 'b' }],
    };
    expect((await pressButton(press)).status).toBe(200);
    const { rows } = await infra.db.pool.query('SELECT status, decided_by FROM approvals WHERE approval_id = $1', [
      approve.value,
    ]);
    expect(rows[0]).toEqual({ status: 'approved', decided_by: 'chatapp:UBOSS' });
    const final = await finalAnswer(ts);
    expect(String(final.args.text)).toContain('hello.md');
    await chat.waitFor('chat.update', (args) => String(args.text).startsWith('Approved by <@UBOSS>'));
    // A second press finds it decided and changes nothing.
    expect((await pressButton({ ...press, actions: [{ ...press.actions[0], action_id: 'keel_reject' }] })).status).toBe(
      200,
    );
    const again = await infra.db.pool.query('SELECT status FROM approvals WHERE approval_id = $1', [approve.value]);
    expect(again.rows[0]).toEqual({ status: 'approved' });
  });

  test("a reply in the thread answers the job's question and the job finishes with it", async () => {
    const ts = nextTs();
    await sendEvent(
      delivery({
        channel: 'D0ASK',
        channel_type: 'im',
        user: 'UASK',
        text: 'Write hello.md that greets the reader #ask',
        ts,
      }),
    );
    await chat.waitFor(
      'chat.postMessage',
      inThread(ts, (t) => t.startsWith('Question')),
    );
    // Replied the moment the question shows: the job already reads paused and takes the answer (docs/human-input.md).
    const [job] = await jobsBy('UASK');
    expect(await statusOf(job!.job_id)).toBe('paused');
    expect(
      (
        await sendEvent(
          delivery({ channel: 'D0ASK', channel_type: 'im', user: 'UASK', text: 'friendly', thread_ts: ts }),
        )
      ).status,
    ).toBe(200);
    await finalAnswer(ts);
    const events = await listEventsAfter(infra.db.pool, job!.job_id, 0, 1000);
    const architect = events.find((e) => e.kind === 'level_finished' && e.agent_role === 'L2.architect')!;
    expect(architect.payload.output_preview).toContain('friendly');
    expect(await answersOf(job!.job_id)).toEqual([{ answer: 'friendly', answered_by: 'chatapp:UASK' }]);
    expect(await jobsBy('UASK')).toHaveLength(1);
    const posts = chat.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === ts);
    expect(posts.filter((c) => String(c.args.text).startsWith("I'm still working"))).toEqual([]);
  });
});

describe('durability and buttons', () => {
  test('a worker restart mid-turn loses nothing: the same progress message is updated and the answer arrives', async () => {
    const ts = nextTs();
    await sendEvent(
      delivery({ channel: 'D0RESTART', channel_type: 'im', user: 'URESTART', text: 'Write hello.md #approve', ts }),
    );
    const request = await chat.waitFor(
      'chat.postMessage',
      inThread(ts, (t) => t.startsWith('Approval needed')),
    );
    await worker.stop();
    worker = await keel.startWorker();
    const approvalId = approvalButtons(request).find((b) => b.action_id === 'keel_approve')!.value;
    expect((await pressButton(buttonPress('URESTART', 'D0RESTART', ts, 'keel_approve', approvalId))).status).toBe(200);
    const final = await finalAnswer(ts);
    expect(String(final.args.text)).toContain('hello.md');
    const posts = chat.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === ts);
    expect(posts.filter((c) => String(c.args.text).startsWith('Working on it'))).toHaveLength(1);
    expect(posts.filter((c) => String(c.args.text).startsWith('Approval needed'))).toHaveLength(1);
    expect(posts.filter((c) => c === final)).toHaveLength(1);
  });

  test("an answer button answers the job's question", async () => {
    const ts = nextTs();
    await sendEvent(
      delivery({
        channel: 'D0BUTTON',
        channel_type: 'im',
        user: 'UBUTTON',
        text: 'Write hello.md that greets the reader #ask',
        ts,
      }),
    );
    const question = await chat.waitFor(
      'chat.postMessage',
      inThread(ts, (t) => t.startsWith('Question')),
    );
    const [job] = await jobsBy('UBUTTON');
    expect(await statusOf(job!.job_id)).toBe('paused');
    const yes = approvalButtons(question).find((b) => b.action_id === 'keel_answer:Yes')!;
    expect((await pressButton(buttonPress('UBUTTON', 'D0BUTTON', ts, yes.action_id, yes.value))).status).toBe(200);
    await finalAnswer(ts);
    const events = await listEventsAfter(infra.db.pool, job!.job_id, 0, 1000);
    const architect = events.find((e) => e.kind === 'level_finished' && e.agent_role === 'L2.architect')!;
    expect(architect.payload.output_preview).toContain('Yes');
    await chat.waitFor('chat.update', (args) => String(args.text).includes('Answered by <@UBUTTON>: Yes'));
    expect(await answersOf(job!.job_id)).toEqual([{ answer: 'Yes', answered_by: 'chatapp:UBUTTON' }]);
  });

  test('a button pressed by someone outside the workspace decides nothing', async () => {
    const ts = nextTs();
    await sendEvent(
      delivery({ channel: 'D0OUTSIDER', channel_type: 'im', user: 'UOWNER', text: 'Write a.md #approve', ts }),
    );
    const request = await chat.waitFor(
      'chat.postMessage',
      inThread(ts, (t) => t.startsWith('Approval needed')),
    );
    const approvalId = approvalButtons(request).find((b) => b.action_id === 'keel_approve')!.value;
    const press = buttonPress('UOUTSIDER', 'D0OUTSIDER', ts, 'keel_approve', approvalId);
    expect((await pressButton({ ...press, user: { id: 'UOUTSIDER', team_id: 'TOTHER' } })).status).toBe(200);
    const { rows } = await infra.db.pool.query('SELECT status FROM approvals WHERE approval_id = $1', [approvalId]);
    expect(rows[0]).toEqual({ status: 'pending' });
    // Leave nothing waiting behind this test.
    await pressButton(buttonPress('UOWNER', 'D0OUTSIDER', ts, 'keel_reject', approvalId));
    await finalAnswer(ts);
  });
});

describe('thread claims', () => {
  test('exactly one of many concurrent claimants wins; the claim is given back, and taken over once stale', async () => {
    const pool = infra.db.pool;
    const thread = { channel: 'C0CLAIM', threadTs: nextTs() };
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => claimChatThread(pool, thread, `claimant-${i}`, 300)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = `claimant-${results.indexOf(true)}`;
    await releaseChatThread(pool, thread, 'not-the-holder');
    expect(await claimChatThread(pool, thread, 'late', 300)).toBe(false);
    await releaseChatThread(pool, thread, winner);
    expect(await claimChatThread(pool, thread, 'next', 300)).toBe(true);
    expect(await claimChatThread(pool, thread, 'rescuer', 0)).toBe(true);
  });

  test('a turn that cannot start says so in the thread, stores nothing and frees the thread', async () => {
    // A thread mapped to a workflow the chat users' org cannot see: starting its next job is refused.
    const response = await fetch(`${keel.baseUrl}/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: '/help' }),
    });
    const foreign = (await response.json()) as { job_id: string; workflow_id: string };
    const ts = nextTs();
    await recordChatTurn(infra.db.pool, {
      channel: 'C0FAIL',
      threadTs: ts,
      workflowId: foreign.workflow_id,
      jobId: foreign.job_id,
    });
    await waitForStatus(foreign.job_id, 'completed');
    const reply = delivery({ channel: 'C0FAIL', user: 'UFAIL', text: 'and now?', thread_ts: ts });
    expect((await sendEvent(reply)).status).toBe(200);
    await chat.waitFor(
      'chat.postMessage',
      inThread(ts, (t) => t.startsWith('Sorry, I could not start on that')),
    );
    expect(await jobsBy('UFAIL')).toEqual([]);
    expect(await threadRow('C0FAIL', ts)).toMatchObject({ last_job_id: foreign.job_id });
    const claims = await infra.db.pool.query('SELECT * FROM chat_thread_claims WHERE channel = $1', ['C0FAIL']);
    expect(claims.rows).toEqual([]);
  });
});

type Button = { action_id: string; value: string };
function approvalButtons(post: { args: Record<string, unknown> }): Button[] {
  const blocks = post.args.blocks as Array<{ type: string; elements?: Button[] }>;
  return blocks.find((b) => b.type === 'actions')!.elements!;
}

function buttonPress(user: string, channel: string, threadTs: string, actionId: string, value: string) {
  return {
    type: 'block_actions',
    user: { id: user, team_id: chat.teamId },
    team: { id: chat.teamId },
    channel: { id: channel },
    container: { type: 'message', message_ts: `${threadTs}9`, channel_id: channel, thread_ts: threadTs },
    actions: [{ type: 'button', action_id: actionId, value, block_id: 'b' }],
  };
}

test('the mapping keeps the user for the reverse lookup, which allows many threads per user', async () => {
  const threads = await listChatThreadsOfUser(infra.db.pool, 'UREPLY');
  expect(threads.length).toBeGreaterThanOrEqual(1);
  const { rows } = await infra.db.pool.query<{ indexdef: string }>(
    `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'chat_threads_user_idx'`,
    [infra.db.schema],
  );
  expect(rows[0]!.indexdef).not.toContain('UNIQUE');
  expect(rows[0]!.indexdef).toContain('WHERE (user_id IS NOT NULL)');
  // Boot against a database that already has the table and index (e.g. restored without the migrations ledger).
  const sql = await fs.readFile(path.join(__dirname, '../../db/migrations/0008_chat_threads.sql'), 'utf8');
  const client = await infra.db.pool.connect();
  try {
    await client.query(`SET search_path TO "${infra.db.schema}", public`);
    await expect(client.query(sql)).resolves.toBeDefined();
  } finally {
    client.release();
  }
  expect(await migrate(infra.db.pool, infra.db.schema)).toEqual([]);
});

/** Waits for the job row to show `status`: the level records it right after raising its question. */
async function statusOf(jobId: string): Promise<string | undefined> {
  const { rows } = await infra.db.pool.query<{ status: string }>('SELECT status FROM job_runs WHERE job_id = $1', [
    jobId,
  ]);
  return rows[0]?.status;
}

async function waitForStatus(jobId: string, status: string): Promise<void> {
  await eventually(
    async () => {
      const { rows } = await infra.db.pool.query<{ status: string }>('SELECT status FROM job_runs WHERE job_id = $1', [
        jobId,
      ]);
      return rows[0]?.status === status;
    },
    { what: `job ${jobId} to reach ${status}` },
  );
}
