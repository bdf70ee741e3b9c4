// The Slack connector against a local server speaking the Slack Web API: paginated history and threads, users.info
// caching, the rewind window across a day boundary, per-channel cursors and 429 retries, with an injected clock.
import type { ConnectorContext, ConnectorStep } from '../../connectors/contract';
import type { Clock } from '../../connectors/clock';
import type { SlackCursor } from '../../connectors/slack/index';
import { createSlackConnector } from '../../connectors/slack/index';
import type { FakeSlackApi } from '../fakes/fake-slack-api';
import { startFakeSlackApi } from '../fakes/fake-slack-api';

let time = 0;
const clock: Clock = {
  now: () => time,
  sleep: async (ms) => {
    time += Math.max(0, ms);
  },
};
const at = (iso: string) => Date.parse(iso);
const ts = (iso: string, micros = '000100') => `${at(iso) / 1000}.${micros}`;
let slack: FakeSlackApi;

beforeEach(async () => {
  time = at('2025-11-21T15:00:00Z');
  slack = await startFakeSlackApi({ now: () => time, pageLimit: 2 });
  slack.addUser('U1', 'ada');
  slack.addUser('U2', 'grace');
});
afterEach(async () => {
  await slack.close();
});

function env(): NodeJS.ProcessEnv {
  return {
    CONNECTOR_SLACK_WORKSPACE_HOST: 'acme.slack.com',
    CONNECTOR_SLACK_CHANNELS: JSON.stringify([
      { id: 'C0GEN', name: 'general', scope: 'all', sensitivity: 'internal', tags: ['chat'] },
      { id: 'C0OPS', name: 'ops', scope: 'top_level', sensitivity: 'secret', tags: [] },
    ]),
    SLACK_API_URL: slack.url,
    CONNECTOR_SLACK_AUTH_SECRET_ID: 'slack-token',
  };
}
const context = (): ConnectorContext => ({
  secret: async (id) => (id === 'slack-token' ? slack.token : undefined),
  progress: () => undefined,
  signal: new AbortController().signal,
  log: () => undefined,
});
async function run(cursor?: SlackCursor): Promise<Array<ConnectorStep<SlackCursor>>> {
  const steps: Array<ConnectorStep<SlackCursor>> = [];
  for await (const step of createSlackConnector(env(), { clock }).read(cursor, context())) steps.push(step);
  return steps;
}

function seed(): void {
  slack.addMessages('C0OPS');
  const root = ts('2025-11-21T09:00:00Z');
  slack.addMessages(
    'C0GEN',
    { ts: ts('2025-11-19T12:00:00Z'), user: 'U1', text: 'outside the window' },
    { ts: ts('2025-11-20T08:00:00Z'), user: 'U1', text: 'yesterday' },
    { ts: ts('2025-11-20T23:59:00Z'), user: 'U2', text: 'late yesterday' },
    { ts: root, thread_ts: root, user: 'U1', text: 'Release <https://ci.example/9|build 9> today?' },
    { ts: ts('2025-11-21T09:05:00Z'), thread_ts: root, user: 'U2', text: 'yes &amp; ship it' },
    { ts: ts('2025-11-21T09:06:00Z'), thread_ts: root, user: 'U9GHOST', text: 'me too' },
    {
      ts: ts('2025-11-21T09:07:00Z'),
      thread_ts: root,
      user: 'U2',
      text: 'also in channel',
      subtype: 'thread_broadcast',
    },
    { ts: ts('2025-11-21T11:00:00Z'), user: 'U2', text: 'hi <@U1>' },
  );
}

describe('Slack connector', () => {
  it('writes one record per channel-day inside the rewind window, threads stitched, cursors per channel', async () => {
    seed();
    slack.addMessages('C0OPS', { ts: ts('2025-11-10T10:00:00Z'), user: 'U1', text: 'old ops' });

    const steps = await run();

    expect(steps.map((step) => step.record?.path)).toEqual([
      'sources/slack/general/2025-11-20.md',
      'sources/slack/general/2025-11-21.md',
      undefined, // #ops has nothing in the window: the cursor step carries no record
    ]);
    const [yesterday, today] = steps.map((step) => step.record!);
    expect(yesterday).toMatchObject({ sourceId: 'slack:C0GEN:2025-11-20', sensitivity: 'internal', tags: ['chat'] });
    expect(today!.body).toBe(
      [
        '# #general — 2025-11-21',
        '## 09:00 — Release [build 9](https://ci.example/9) today?',
        `**ada** (09:00 UTC) [link](https://acme.slack.com/archives/C0GEN/p${ts('2025-11-21T09:00:00Z').replace('.', '')})`,
        'Release [build 9](https://ci.example/9) today?',
        `↳ **grace** (09:05 UTC) [link](https://acme.slack.com/archives/C0GEN/p${ts('2025-11-21T09:05:00Z').replace('.', '')})`,
        'yes & ship it',
        `↳ **U9GHOST** (09:06 UTC) [link](https://acme.slack.com/archives/C0GEN/p${ts('2025-11-21T09:06:00Z').replace('.', '')})`,
        'me too',
        `↳ **grace** (09:07 UTC) [link](https://acme.slack.com/archives/C0GEN/p${ts('2025-11-21T09:07:00Z').replace('.', '')})`,
        'also in channel',
        '## 11:00 — hi @ada',
        `**grace** (11:00 UTC) [link](https://acme.slack.com/archives/C0GEN/p${ts('2025-11-21T11:00:00Z').replace('.', '')})`,
        'hi @ada',
      ].join('\n\n') + '\n',
    );
    // Cursors: general's entry is the highest ts of each day yielded; ops keeps no entry until it has a day.
    expect(steps.map((step) => step.cursor)).toEqual([
      { C0GEN: ts('2025-11-20T23:59:00Z') },
      { C0GEN: ts('2025-11-21T11:00:00Z') },
      { C0GEN: ts('2025-11-21T11:00:00Z') },
    ]);
    // History from the window start (yesterday 00:00 UTC), in pages of two; users looked up once each.
    const history = slack.callsOf('conversations.history').filter((call) => call.args.channel === 'C0GEN');
    expect(history[0]!.args).toMatchObject({
      oldest: `${at('2025-11-20T00:00:00Z') / 1000}.000000`,
      inclusive: 'true',
    });
    expect(history.length).toBe(3);
    expect(slack.callsOf('conversations.replies').length).toBe(2); // root and three replies, two per page
    expect(
      slack
        .callsOf('users.info')
        .map((call) => call.args.user)
        .sort(),
    ).toEqual(['U1', 'U2', 'U9GHOST']);
  });

  it('re-renders whole days of the window across a day boundary and leaves older days alone', async () => {
    seed();
    const first = await run();
    const cursor = first.at(-1)!.cursor;

    time = at('2025-11-22T01:00:00Z');
    slack.addMessages('C0GEN', { ts: ts('2025-11-22T00:30:00Z'), user: 'U1', text: 'after midnight' });
    const second = await run(cursor);

    // Today is the 22nd: the window starts on the 21st, which is re-rendered whole; the 20th is immutable now.
    expect(second.filter((step) => step.record).map((step) => step.record!.sourceId)).toEqual([
      'slack:C0GEN:2025-11-21',
      'slack:C0GEN:2025-11-22',
    ]);
    expect(second[0]!.record!.body).toContain('Release [build 9]');
    expect(second[0]!.record!.body).toBe(first[1]!.record!.body);
    expect(second.at(-1)!.cursor).toEqual({ C0GEN: ts('2025-11-22T00:30:00Z') });
  });

  it('advances each channel independently, and ops (top_level scope) never fetches threads', async () => {
    seed();
    const opsRoot = ts('2025-11-21T10:00:00Z');
    slack.addMessages(
      'C0OPS',
      { ts: opsRoot, thread_ts: opsRoot, user: 'U2', text: 'incident' },
      { ts: ts('2025-11-21T10:01:00Z'), thread_ts: opsRoot, user: 'U1', text: 'on it' },
    );
    const old = { C0GEN: ts('2025-11-21T11:00:00Z'), C0OPS: ts('2025-11-01T00:00:00Z') };

    const steps = await run(old);

    const ops = steps.filter((step) => step.record?.sourceId.startsWith('slack:C0OPS'));
    expect(ops.map((step) => step.record!.path)).toEqual(['sources/slack/ops/2025-11-21.md']);
    expect(ops[0]!.record!.sensitivity).toBe('secret');
    expect(ops[0]!.record!.body).not.toContain('on it');
    expect(steps.at(-1)!.cursor).toEqual({ C0GEN: ts('2025-11-21T11:00:00Z'), C0OPS: opsRoot });
    expect(slack.callsOf('conversations.replies').every((call) => call.args.channel === 'C0GEN')).toBe(true);
    // The ops cursor was three weeks old: history starts at the start of that cursor's day.
    const opsHistory = slack.callsOf('conversations.history').find((call) => call.args.channel === 'C0OPS');
    expect(opsHistory!.args.oldest).toBe(`${at('2025-11-01T00:00:00Z') / 1000}.000000`);
  });

  it('waits out a 429 for the Retry-After it names, then carries on', async () => {
    seed();
    slack.throttleNext(1, 30);

    const steps = await run();

    expect(steps.filter((step) => step.record)).toHaveLength(2);
    const [throttled, retried] = slack.calls;
    expect(retried!.at - throttled!.at).toBeGreaterThanOrEqual(30_000);
    expect(retried!.args).toEqual(throttled!.args);
  });
});
