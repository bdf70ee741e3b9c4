// The backfill tool re-seeds a channel from a small workspace export, through the same entry the CLI calls.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runSlackBackfill } from '../../cli/connector-backfill';
import type { Connector, ConnectorStep } from '../../connectors/contract';
import type { SlackCursor } from '../../connectors/slack/index';
import { connectorsConfig } from '../../connectors/settings';

let dir: string;
const env: NodeJS.ProcessEnv = {
  CONNECTOR_SLACK_WORKSPACE_HOST: 'acme.slack.com',
  CONNECTOR_SLACK_CHANNELS: JSON.stringify([
    { id: 'C0GEN', name: 'general', sensitivity: 'partner', tags: ['export'] },
  ]),
  CONNECTOR_SLACK_AUTH_SECRET_ID: 'slack-token',
};

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-slack-export-'));
  const write = (file: string, value: unknown) => fs.writeFile(path.join(dir, file), JSON.stringify(value, null, 2));
  await write('channels.json', [
    { id: 'C0GEN', name: 'general', created: 1700000000, members: ['U1', 'U2'], topic: { value: '' } },
    { id: 'C0RND', name: 'random', created: 1700000000 },
  ]);
  await write('users.json', [
    { id: 'U1', name: 'ada', real_name: 'Ada L', profile: { display_name: 'ada', real_name: 'Ada L' } },
    { id: 'U2', name: 'grace', profile: { display_name: '', real_name: 'Grace H' } },
  ]);
  await fs.mkdir(path.join(dir, 'general'));
  // An export files each reply under the day it was posted; the backfill stitches it back under its root's day.
  await write('general/2025-11-20.json', [
    {
      type: 'message',
      ts: '1763629200.000100',
      thread_ts: '1763629200.000100',
      reply_count: 1,
      user: 'U1',
      text: 'Plan &gt; ship',
      user_profile: { display_name: 'ada' },
    },
    {
      type: 'message',
      subtype: 'channel_join',
      ts: '1763629300.000200',
      user: 'U2',
      text: '<@U2> has joined the channel',
    },
  ]);
  await write('general/2025-11-21.json', [
    {
      type: 'message',
      ts: '1763683200.000300',
      thread_ts: '1763629200.000100',
      parent_user_id: 'U1',
      user: 'U2',
      text: 'agreed <@U1>',
    },
    {
      type: 'message',
      ts: '1763690400.000400',
      user: 'U2',
      text: 'morning',
      reactions: [{ name: 'wave', count: 2, users: ['U1', 'U2'] }],
    },
  ]);
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function backfill(argv: string[], cursor?: SlackCursor): Promise<Array<ConnectorStep<SlackCursor>>> {
  const steps: Array<ConnectorStep<SlackCursor>> = [];
  const runConnector = async (connector: Connector<SlackCursor>) => {
    const context = {
      secret: async () => undefined,
      progress: () => undefined,
      signal: new AbortController().signal,
      log: () => undefined,
    };
    for await (const step of connector.read(cursor, context)) steps.push(step);
  };
  await runSlackBackfill({ argv, slack: connectorsConfig.parse(env).slack, runConnector });
  return steps;
}

describe('Slack backfill from a workspace export', () => {
  it('yields the same channel-day records the API connector would, replies under their root', async () => {
    const steps = await backfill(['--export', dir, '--channel', 'general']);

    expect(steps.map((step) => step.record!.sourceId)).toEqual(['slack:C0GEN:2025-11-20', 'slack:C0GEN:2025-11-21']);
    const first = steps[0]!.record!;
    expect(first).toMatchObject({
      path: 'sources/slack/general/2025-11-20.md',
      sensitivity: 'partner',
      tags: ['export'],
    });
    expect(first.body).toBe(
      [
        '# #general — 2025-11-20',
        '## 09:00 — Plan > ship',
        '**ada** (09:00 UTC) [link](https://acme.slack.com/archives/C0GEN/p1763629200000100)',
        'Plan > ship',
        '↳ **Grace H** (00:00 UTC) [link](https://acme.slack.com/archives/C0GEN/p1763683200000300)',
        'agreed @ada',
      ].join('\n\n') + '\n',
    );
    expect(steps[1]!.record!.body).toContain('_Reactions: :wave: 2_');
    expect(steps.at(-1)!.cursor).toEqual({ C0GEN: '1763690400.000400' });
  });

  it('never moves a newer cursor back', async () => {
    const steps = await backfill(['--export', dir, '--channel', 'C0GEN'], { C0GEN: '1800000000.000000', C0X: '1.0' });
    expect(steps.at(-1)!.cursor).toEqual({ C0GEN: '1800000000.000000', C0X: '1.0' });
  });

  it('refuses a channel without a policy, and bad arguments with the usage line', async () => {
    await expect(backfill(['--export', dir, '--channel', 'random'])).rejects.toThrow('not in CONNECTOR_SLACK_CHANNELS');
    await expect(backfill(['--channel', 'general'])).rejects.toThrow('usage: keel connector backfill');
  });

  it('names the export file that does not parse', async () => {
    await fs.writeFile(path.join(dir, 'general', '2025-11-22.json'), JSON.stringify([{ text: 'no ts' }]));
    await expect(backfill(['--export', dir, '--channel', 'general'])).rejects.toThrow(
      '2025-11-22.json: not a Slack export file',
    );
  });
});
