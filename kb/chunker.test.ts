import { chunkMarkdown, MAX_CHUNK_CHARS, OVERLAP_CHARS } from './chunker';

const KH = 'kh-0000000000000000000000000A';

const GUIDE = [
  '# Deploy guide', // line 1
  '',
  'Keel deploys from the main branch.',
  '',
  '## Install',
  '',
  'Run the installer:',
  '',
  '```sh',
  'npm install',
  '```',
  '',
  '### Linux',
  '',
  '- apt-get install keel',
  '- systemctl start keel',
  '',
  '## Empty heading',
  '## Rollback',
  '',
  'Re-run the previous release.',
].join('\n');

describe('chunkMarkdown', () => {
  it('cuts at headings, keeps each heading with its text and names the heading path', () => {
    const chunks = chunkMarkdown(KH, GUIDE, 1);
    expect(
      chunks.map(({ heading, content, startLine, endLine, ordinal }) => ({
        heading,
        content,
        startLine,
        endLine,
        ordinal,
      })),
    ).toEqual([
      {
        ordinal: 0,
        heading: 'Deploy guide',
        content: '# Deploy guide\n\nKeel deploys from the main branch.',
        startLine: 3,
        endLine: 3,
      },
      {
        ordinal: 1,
        heading: 'Deploy guide > Install',
        content: '## Install\n\nRun the installer:\n\n```sh\nnpm install\n```',
        startLine: 7,
        endLine: 11,
      },
      {
        ordinal: 2,
        heading: 'Deploy guide > Install > Linux',
        content: '### Linux\n\n- apt-get install keel\n- systemctl start keel',
        startLine: 15,
        endLine: 16,
      },
      {
        ordinal: 3,
        heading: 'Deploy guide > Rollback',
        content: '## Rollback\n\nRe-run the previous release.',
        startLine: 21,
        endLine: 21,
      },
    ]);
  });

  it('offsets line numbers by where the body starts in the file', () => {
    const [first] = chunkMarkdown(KH, 'Intro text.', 6);
    expect(first).toMatchObject({ heading: '', content: 'Intro text.', startLine: 6, endLine: 6 });
  });

  it('packs whole blocks up to the size limit and overlaps the next chunk of the section', () => {
    const paragraph = (n: number) => `Paragraph ${n} ${'word '.repeat(60).trim()} end${n}.`;
    const body = ['## Long', '', ...Array.from({ length: 8 }, (_, i) => [paragraph(i), '']).flat()].join('\n');
    const chunks = chunkMarkdown(KH, body);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.content.startsWith('## Long\n\n')).toBe(true);
      expect(chunk.content.length).toBeLessThanOrEqual('## Long\n\n'.length + OVERLAP_CHARS + 2 + MAX_CHUNK_CHARS);
    }
    // Every paragraph lands whole in exactly one chunk's own text; the next chunk repeats the end of the last one.
    const first = chunks[0]!.content;
    const second = chunks[1]!.content.slice('## Long\n\n'.length);
    const lastOfFirst = first.split('\n\n').pop()!;
    expect(
      second.startsWith(
        lastOfFirst
          .slice(-OVERLAP_CHARS)
          .replace(/^\S*\s/, '')
          .trim(),
      ),
    ).toBe(true);
  });

  it('splits a block larger than the limit at line breaks', () => {
    const code = ['```', ...Array.from({ length: 100 }, (_, i) => `line ${i} ${'x'.repeat(40)}`), '```'].join('\n');
    const chunks = chunkMarkdown(KH, code);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[0]!.startLine).toBe(1);
    expect(chunks[chunks.length - 1]!.endLine).toBe(102);
  });

  it('gives unchanged text the same id after an edit elsewhere, and duplicates distinct ids', () => {
    const before = chunkMarkdown(KH, '## A\n\nalpha\n\n## B\n\nbeta');
    const after = chunkMarkdown(KH, '## Z\n\nnew section\n\n## A\n\nalpha\n\n## B\n\nbeta changed');
    expect(after.find((c) => c.heading === 'A')!.chunkId).toBe(before.find((c) => c.heading === 'A')!.chunkId);
    expect(after.find((c) => c.heading === 'B')!.chunkId).not.toBe(before.find((c) => c.heading === 'B')!.chunkId);
    const twice = chunkMarkdown(KH, '## A\n\nsame\n\n## A\n\nsame');
    expect(new Set(twice.map((c) => c.chunkId)).size).toBe(2);
    expect(twice[0]!.chunkId.startsWith(`${KH}:`)).toBe(true);
  });
});
