import { composeTurnPrompt, recentHistory } from './history';

const BOT = 'UBOT';
const msg = (ts: string, text: string, who: { user?: string; bot_id?: string } = { user: 'UALICE' }) => ({
  ts,
  text,
  ...who,
});

test('the recency window is the last N messages before the one being answered', () => {
  const thread = [msg('1.0', 'a'), msg('2.0', 'b'), msg('3.0', 'c'), msg('4.0', 'now'), msg('5.0', 'later')];
  expect(recentHistory(thread, '4.0', 2).map((m) => m.text)).toEqual(['b', 'c']);
  expect(recentHistory(thread, '4.0', 0)).toEqual([]);
});

test("the prompt names who said what, Keel's own posts as Keel, then the new message", () => {
  const prompt = composeTurnPrompt(
    [msg('1.0', 'write a haiku'), msg('2.0', 'Here it is', { bot_id: 'B1', user: BOT })],
    'shorter please',
    { botUserId: BOT, maxChars: 10_000 },
  );
  expect(prompt).toBe(
    'Earlier in this chat thread (oldest first):\n<@UALICE>: write a haiku\nKeel: Here it is\n\nNew message:\nshorter please',
  );
});

test('no history: the prompt is the message alone', () => {
  expect(composeTurnPrompt([], 'hello', { botUserId: BOT, maxChars: 100 })).toBe('hello');
});

test('the oldest lines give way first when the whole would not fit', () => {
  const prompt = composeTurnPrompt([msg('1.0', 'x'.repeat(50)), msg('2.0', 'recent')], 'ask', {
    botUserId: BOT,
    maxChars: 80,
  });
  expect(prompt).toContain('recent');
  expect(prompt).not.toContain('xxxx');
  expect(prompt.length).toBeLessThanOrEqual(80);
});
