// Goldens: one per text transform (in the spec's order) and for message rendering and thread stitching.
import type { SlackMessage } from './api-schemas';
import { SlackMessageSchema } from './api-schemas';
import { ChannelPolicySchema } from './config';
import { bucketChannelDays, renderChannelDay, renderMessage } from './render-day';
import { effectiveOldestMs } from './timestamps';
import { transformText } from './transforms';

const names = { user: (id: string) => ({ U1: 'ada', U2: 'grace' })[id] };
const channel = ChannelPolicySchema.parse({ id: 'C0GEN', name: 'general', sensitivity: 'internal' });
const context = { channel, origin: 'https://acme.slack.com', names };
const msg = (fields: Partial<SlackMessage> & { ts: string }) =>
  SlackMessageSchema.parse({ type: 'message', ...fields });

const TRANSFORMS: Array<[string, string, string]> = [
  ['user mention → @display-name', 'hi <@U1> and <@U2|grace>', 'hi @ada and @grace'],
  ['unknown user → @<user id>', 'ping <@U9ZZZ>', 'ping @U9ZZZ'],
  ['channel mention → #name', 'see <#C123|eng-platform>', 'see #eng-platform'],
  ['channel mention without a name → #<channel id>', 'see <#C123> and <#C456|>', 'see #C123 and #C456'],
  [
    'link with label → [label](url)',
    'read <https://a.example/x?y=1|the doc>',
    'read [the doc](https://a.example/x?y=1)',
  ],
  ['bare link → the URL', 'go <https://a.example>', 'go https://a.example'],
  ['HTML entities unescaped', 'a &amp; b &lt;tag&gt;', 'a & b <tag>'],
  ['entities last: escaped brackets stay literal text', '&lt;@U1&gt; is how you mention', '<@U1> is how you mention'],
  [
    'all four in order',
    '<@U1> in <#C1|ops>: <https://x.example?a=1&amp;b=2|link> &amp; more',
    '@ada in #ops: [link](https://x.example?a=1&b=2) & more',
  ],
];

describe('Slack text transforms (goldens)', () => {
  it.each(TRANSFORMS)('%s', (_name, input, expected) => {
    expect(transformText(input, names)).toBe(expected);
  });
});

describe('Slack message rendering', () => {
  it('renders author, time, permalink, text, attachments and the reactions footer', () => {
    const message = msg({
      ts: '1763719380.123456',
      user: 'U1',
      text: 'Shipped <https://ci.example/1|build 1>',
      files: [
        { id: 'F1', name: 'log.txt', permalink: 'https://acme.slack.com/files/U1/F1/log.txt' },
        { id: 'F2', name: 'shot.png', url_private: 'https://files.slack.com/F2/shot.png' },
        { id: 'F3', name: 'gone.png' },
      ],
      reactions: [
        { name: 'tada', count: 3, users: [] },
        { name: '+1', count: 1, users: [] },
      ],
    });
    expect(renderMessage(message, context)).toBe(
      [
        '**ada** (10:03 UTC) [link](https://acme.slack.com/archives/C0GEN/p1763719380123456)',
        'Shipped [build 1](https://ci.example/1)',
        '- attachment: [log.txt](https://acme.slack.com/files/U1/F1/log.txt)\n- attachment: [shot.png](https://files.slack.com/F2/shot.png)',
        '_Reactions: :tada: 3, :+1: 1_',
      ].join('\n\n'),
    );
  });

  it('stitches threads under HH:MM — topic headings in the root day, de-duplicating by ts', () => {
    const root = msg({
      ts: '1763719380.000100',
      thread_ts: '1763719380.000100',
      reply_count: 2,
      user: 'U1',
      text: 'Deploy plan for <#C1|ops> — please review the long checklist before we go',
    });
    const reply1 = msg({ ts: '1763720000.000200', thread_ts: root.ts, user: 'U2', text: 'lgtm' });
    // Posted after midnight UTC: it stays with its thread.
    const reply2 = msg({ ts: '1763769700.000300', thread_ts: root.ts, user: 'U9', text: 'late' });
    const lone = msg({
      ts: '1763722800.000400',
      user: 'U2',
      text: '',
      files: [{ name: 'a.pdf', permalink: 'https://p/a.pdf' }],
    });
    const join = msg({ ts: '1763722900.000500', user: 'U2', subtype: 'channel_join', text: '<@U2> has joined' });
    const days = bucketChannelDays([lone, reply1, root, reply2, root, reply1, join]);

    expect(days.map((day) => day.day)).toEqual(['2025-11-21']);
    expect(renderChannelDay(days[0]!, context)).toBe(
      [
        '# #general — 2025-11-21',
        '## 10:03 — Deploy plan for #ops — please review the long checklist…',
        '**ada** (10:03 UTC) [link](https://acme.slack.com/archives/C0GEN/p1763719380000100)',
        'Deploy plan for #ops — please review the long checklist before we go',
        '↳ **grace** (10:13 UTC) [link](https://acme.slack.com/archives/C0GEN/p1763720000000200)',
        'lgtm',
        '↳ **U9** (00:01 UTC) [link](https://acme.slack.com/archives/C0GEN/p1763769700000300)',
        'late',
        '## 11:00 — a.pdf',
        '**grace** (11:00 UTC) [link](https://acme.slack.com/archives/C0GEN/p1763722800000400)',
        '- attachment: [a.pdf](https://p/a.pdf)',
      ].join('\n\n') + '\n',
    );
  });
});

describe('rewind window', () => {
  const day = 86_400_000;
  const today = Date.parse('2025-11-21T00:00:00Z');
  it('without a cursor starts rewind_days before today (UTC)', () => {
    expect(effectiveOldestMs(undefined, today + 5 * 3_600_000, 1)).toBe(today - day);
  });
  it('uses the window start when the cursor is newer, so a mid-day run re-renders whole days', () => {
    expect(effectiveOldestMs('1763719380.000100', today + 15 * 3_600_000, 1)).toBe(today - day);
  });
  it('floors an older cursor to the start of its day', () => {
    expect(effectiveOldestMs(String((today - 5 * day + 3_600_000) / 1000), today, 1)).toBe(today - 5 * day);
  });
});
