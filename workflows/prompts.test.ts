import { levelMessages, parseVerdict, preview } from './prompts';

const ids = { job_id: 'job-1', workflow_id: 'wf-1', prompt_id: 'pt-1' };

describe('level prompts', () => {
  test('name the level on the first system line and end with the request', () => {
    const messages = levelMessages({
      ids,
      role: 'L4.executor',
      attempt: 1,
      level: { role: 'L4.executor', prompt: '{{context}}\n\nRequest:\n{{request}}', tools: ['write_file'] },
      request: 'Write hello.md',
      context: [{ role: 'L2.architect', output: 'Task: write hello.md' }],
    });
    expect(messages[0]!.content!.split('\n')[0]).toBe('Keel level: L4.executor');
    expect(messages[1]!.content).toBe('## Output of L2.architect\nTask: write hello.md\n\nRequest:\nWrite hello.md');
  });

  test.each([
    ['{"verdict":"pass","deltas":[]}', { verdict: 'pass', deltas: [] }],
    ['Result: {"verdict":"fail","deltas":["add a title"]}', { verdict: 'fail', deltas: ['add a title'] }],
    ['{"verdict":"maybe"}', { verdict: 'unknown', deltas: [] }],
    ['looks fine to me', { verdict: 'unknown', deltas: [] }],
    ['{broken', { verdict: 'unknown', deltas: [] }],
  ])('a verifier answer %s reads as %o', (output, expected) => {
    expect(parseVerdict(output)).toEqual(expected);
  });

  test('previews flatten whitespace and stay short', () => {
    expect(preview('a\n\n b')).toBe('a b');
    expect(preview('x'.repeat(500))).toHaveLength(280);
  });
});
