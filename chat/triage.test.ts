import type { ChatMessageEvent } from './payloads';
import { triageMessage, type TriageContext } from './triage';

const BOT = 'UBOT';
const TEAM = 'T1';
const ctx = (overrides: Partial<TriageContext> = {}): TriageContext => ({
  botUserId: BOT,
  teamId: TEAM,
  authorTeamId: TEAM,
  duplicate: false,
  threadKnown: false,
  ...overrides,
});
const message = (overrides: Partial<ChatMessageEvent> = {}): ChatMessageEvent => ({
  type: 'message',
  channel: 'C1',
  user: 'UALICE',
  text: 'write hello.md',
  ts: '1700000000.000100',
  ...overrides,
});

describe('acts on', () => {
  test('a direct message', () => {
    expect(triageMessage(message({ channel: 'D1', channel_type: 'im' }), ctx())).toEqual({
      act: true,
      why: 'direct_message',
    });
  });
  test('a mention of the bot, by event type or in the text', () => {
    expect(triageMessage(message({ type: 'app_mention', text: `<@${BOT}> hi` }), ctx())).toEqual({
      act: true,
      why: 'mention',
    });
    expect(triageMessage(message({ text: `hey <@${BOT}> hi` }), ctx())).toEqual({ act: true, why: 'mention' });
  });
  test('a reply in a thread that has a conversation', () => {
    const reply = message({ thread_ts: '1700000000.000001' });
    expect(triageMessage(reply, ctx({ threadKnown: true }))).toEqual({ act: true, why: 'thread_reply' });
  });
});

describe('drops, naming the rule', () => {
  test.each<[string, Partial<ChatMessageEvent>, Partial<TriageContext>, string]>([
    ['a bot post (bot id present)', { bot_id: 'B1', channel_type: 'im' }, {}, 'own_or_other_bot'],
    ['the bot itself', { user: BOT, channel_type: 'im' }, {}, 'own_or_other_bot'],
    ['the built-in bot (no bot id)', { user: 'USLACKBOT', channel_type: 'im' }, {}, 'built_in_bot'],
    ['a message with files', { files: [{ id: 'F1' }], channel_type: 'im' }, {}, 'attachments'],
    ['a message with attachments', { attachments: [{ text: 'x' }], channel_type: 'im' }, {}, 'attachments'],
    ['any subtype', { subtype: 'message_changed', channel_type: 'im' }, {}, 'subtype'],
    ['a duplicate delivery', { channel_type: 'im' }, { duplicate: true }, 'duplicate_delivery'],
    ['an author of another workspace', { channel_type: 'im' }, { authorTeamId: 'T2' }, 'outside_workspace'],
    ['an author of no known workspace', { channel_type: 'im' }, { authorTeamId: undefined }, 'outside_workspace'],
    ['a mention and nothing else', { text: `<@${BOT}>`, type: 'app_mention' }, {}, 'empty'],
    ['a top-level channel message', {}, {}, 'not_addressed'],
    [
      'a top-level message even where a thread of that ts is known',
      { thread_ts: '1700000000.000100' },
      { threadKnown: true },
      'not_addressed',
    ],
    ['a reply in a thread with no conversation', { thread_ts: '1700000000.000001' }, {}, 'not_addressed'],
  ])('%s', (_name, event, context, rule) => {
    expect(triageMessage(message(event), ctx(context))).toEqual({ act: false, rule });
  });
});
