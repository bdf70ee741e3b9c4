import path from 'node:path';
import { resolveWorkspacePath } from './workspace-path';

describe('workspace paths chosen by a model', () => {
  test.each([
    ['hello.md', 'hello.md'],
    ['docs/intro.md', 'docs/intro.md'],
    ['./docs//intro.md', 'docs/intro.md'],
    ['a/b/../c.txt', 'a/c.txt'],
  ])('%s lands inside the job workspace as %s', (input, normalized) => {
    const result = resolveWorkspacePath('/ws', 'job-1', input);
    expect(result).toEqual({ ok: true, normalized, absolute: path.join('/ws', 'job-1', normalized) });
  });

  test.each([
    ['an absolute path', '/etc/passwd'],
    ['a parent escape', '../other-job/x.md'],
    ['a nested escape', 'a/../../x.md'],
    ['the workspace itself', '.'],
    ['an empty path', ''],
    ['a backslash', 'a\\b.md'],
    ['a control character', 'a\u0000b.md'],
    ['an over-long path', `${'a'.repeat(300)}.md`],
  ])('%s is refused with a reason', (_name, input) => {
    const result = resolveWorkspacePath('/ws', 'job-1', input);
    expect(result.ok).toBe(false);
  });
});
