import { appendAnchorOf, knownContentOf, workspaceFileExists } from './workspace-context';

const fenced = (path: string, body: string, fence = '```'): string =>
  `Current content of ${path}:\n${fence}markdown\n${body}\n${fence}\n`;

describe('workspaceFileExists: a line Workspace file <path> exists', () => {
  it.each([
    ['Workspace file hello.md exists\n', 'hello.md', true],
    ['  Workspace file ./hello.md exists.\n', 'hello.md', true],
    ['Workspace file `docs/a.md` exists\n', 'docs/a.md', true],
    ['Workspace file other.md exists\n', 'hello.md', false],
    ['Workspace file hello.md exists and is large\n', 'hello.md', false],
    ['Note: Workspace file hello.md exists\n', 'hello.md', false],
    ['', 'hello.md', false],
  ])('%j says %s exists: %p', (context, path, exists) => {
    expect(workspaceFileExists(context, path)).toBe(exists);
  });
});

describe('knownContentOf: the fenced block under Current content of <path>:', () => {
  it('reads a fenced block with its blank lines and headings', () => {
    expect(knownContentOf(fenced('hello.md', '# Hello\n\n## Part\nBody.'), 'hello.md')).toBe(
      '# Hello\n\n## Part\nBody.',
    );
  });

  it('closes a fence only with the same character, at least as long', () => {
    const body = '```\ncode\n```\n~~~ not this';
    expect(knownContentOf(fenced('a.md', body, '````'), 'a.md')).toBe(body);
  });

  it.each([
    ['an unfenced block', 'Current content of a.md:\n# A\nBody.\n'],
    ['an unclosed fence', 'Current content of a.md:\n```\n# A\n'],
    ['another path', fenced('b.md', '# B')],
  ])('knows nothing from %s', (_label, context) => {
    expect(knownContentOf(context, 'a.md')).toBeUndefined();
  });

  it('takes the last block shown for a path', () => {
    expect(knownContentOf(`${fenced('a.md', 'old')}\n${fenced('./a.md', 'new')}`, 'a.md')).toBe('new');
  });
});

describe('appendAnchorOf: the last non-blank line, when the file exists and the line is unique', () => {
  const exists = 'Workspace file a.md exists\n';

  it('anchors on the last non-blank line', () => {
    expect(appendAnchorOf(`${exists}${fenced('a.md', '# A\n\nLast line.\n\n')}`, 'a.md')).toBe('Last line.');
  });

  it.each([
    ['without the exists line', fenced('a.md', '# A\nLast.')],
    ['without known content', exists],
    ['with blank content', `${exists}${fenced('a.md', '\n  ')}`],
    ['when the last line also occurs earlier', `${exists}${fenced('a.md', 'Same.\n# A\nSame.')}`],
  ])('has no anchor %s', (_label, context) => {
    expect(appendAnchorOf(context, 'a.md')).toBeUndefined();
  });
});
