import { RepoPolicySchema } from './config';
import { languageOf } from './languages';
import { renderFileRecord } from './render';

const policy = RepoPolicySchema.parse({
  owner: 'acme',
  repo: 'widgets',
  branch: 'main',
  sensitivity: 'internal',
  tags: ['code'],
});
const SHA = '0123456789abcdef0123456789abcdef01234567';

describe('the GitHub record', () => {
  it('renders heading, link at the commit, commit and branch line, and the fenced file (golden)', () => {
    const record = renderFileRecord({
      policy,
      repoPath: 'src/app.ts',
      text: 'export const answer = 42;\n',
      sha: SHA,
      webBase: 'https://github.com',
    });
    expect(record.body).toBe(
      [
        '# acme/widgets:src/app.ts',
        '',
        '[src/app.ts at 0123456](https://github.com/acme/widgets/blob/0123456789abcdef0123456789abcdef01234567/src/app.ts)',
        '',
        'Commit `0123456` on branch `main`',
        '',
        '```typescript',
        'export const answer = 42;',
        '```',
        '',
      ].join('\n'),
    );
    expect(record).toMatchObject({
      path: 'sources/github/acme/widgets/src/app.ts.md',
      sourceId: 'github:acme/widgets:src/app.ts',
      title: 'acme/widgets:src/app.ts',
      sensitivity: 'internal',
      tags: ['code'],
      sourceUrl: `https://github.com/acme/widgets/blob/${SHA}/src/app.ts`,
    });
  });

  it('keeps the commit out of the source id, so an edit updates the same record', () => {
    const a = renderFileRecord({ policy, repoPath: 'a.md', text: 'x', sha: SHA, webBase: 'https://github.com' });
    const b = renderFileRecord({
      policy,
      repoPath: 'a.md',
      text: 'y',
      sha: 'f'.repeat(40),
      webBase: 'https://github.com',
    });
    expect(a.sourceId).toBe(b.sourceId);
    expect(a.sourceUrl).not.toBe(b.sourceUrl);
  });

  it('uses a longer fence when the file holds one, and an empty fence for unknown extensions', () => {
    const record = renderFileRecord({
      policy,
      repoPath: 'notes.weird',
      text: 'before\n```\ninside\n```\n',
      sha: SHA,
      webBase: 'https://github.com',
    });
    expect(record.body).toContain('\n````\nbefore\n```\ninside\n```\n````\n');
  });

  it.each([
    ['Dockerfile', 'dockerfile'],
    ['build/Makefile', 'makefile'],
    ['main.go', 'go'],
    ['lib.rs', 'rust'],
    ['script.PY', 'python'],
    ['config.yml', 'yaml'],
    ['.env', ''],
    ['LICENSE', ''],
  ])('language of %s is "%s"', (file, language) => {
    expect(languageOf(file)).toBe(language);
  });
});
