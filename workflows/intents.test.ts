import { answerCommand, classifyIntent, keptFile } from './intents';

describe('the team lead classifies non-LLM intents before any model call', () => {
  test.each([
    ['/help', { kind: 'command', name: 'help', args: '' }],
    ['  /Echo hello there ', { kind: 'command', name: 'echo', args: 'hello there' }],
    ['rule: always write British spelling', { kind: 'rule', text: 'always write British spelling' }],
    ['Fact:  the API listens on 3000', { kind: 'fact', text: 'the API listens on 3000' }],
    ['Write hello.md that greets the reader', { kind: 'llm' }],
    ['Explain /help in a paragraph', { kind: 'llm' }],
    ['rules are fun', { kind: 'llm' }],
  ])('%s is %o', (prompt, intent) => {
    expect(classifyIntent(prompt)).toEqual(intent);
  });

  test('commands are answered in code', () => {
    expect(answerCommand('echo', 'hi')).toBe('hi');
    expect(answerCommand('help', '')).toContain('/echo');
    expect(answerCommand('nope', '')).toBe('unknown command /nope; try /help');
  });

  test('a kept rule becomes a line in rules.md', () => {
    expect(keptFile({ kind: 'rule', text: 'use\nBritish spelling' })).toEqual({
      path: 'rules.md',
      content: '# Rules\n\n- use British spelling\n',
    });
  });
});
