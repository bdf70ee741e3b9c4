import { DocumentFormatError, parseHubDocument, renderHubDocument } from './document-format';

const ID = 'kh-0000000000000000000000000A';

describe('parseHubDocument', () => {
  it('reads the frontmatter, the body, where the body starts and a title', () => {
    const raw = `---\nid: ${ID}\nsensitivity: internal\ntags: [ops, deploy]\nowner: ops-team\n---\n# Runbook\n\nText.\n`;
    const doc = parseHubDocument(raw, 'runbooks/deploy.md');
    expect(doc.frontmatter).toEqual({ id: ID, sensitivity: 'internal', tags: ['ops', 'deploy'], owner: 'ops-team' });
    expect(doc.body).toBe('# Runbook\n\nText.\n');
    expect(doc.bodyStartLine).toBe(7);
    expect(doc.title).toBe('Runbook');
  });

  it('takes the title from frontmatter, else the first heading, else the file name', () => {
    expect(parseHubDocument(`---\nid: ${ID}\nsensitivity: public\ntitle: T\n---\n# H\n`, 'a/b.md').title).toBe('T');
    expect(parseHubDocument(`---\nid: ${ID}\nsensitivity: public\n---\nno heading\n`, 'a/b.md').title).toBe('b');
  });

  it.each([
    ['no frontmatter', '# Title\n', /no frontmatter/],
    ['an unclosed frontmatter', `---\nid: ${ID}\n`, /never closed/],
    ['bad YAML', '---\nid: [\n---\n', /not valid YAML/],
    ['a missing sensitivity', `---\nid: ${ID}\n---\n`, /sensitivity/],
    ['an unknown sensitivity', `---\nid: ${ID}\nsensitivity: top-secret\n---\n`, /sensitivity/],
    ['a malformed id', '---\nid: doc-1\nsensitivity: public\n---\n', /id: a kh-id/],
    ['a malformed source_hash', `---\nid: ${ID}\nsensitivity: public\nsource_hash: abc\n---\n`, /source_hash/],
  ])('refuses %s, naming the problem', (_what, raw, message) => {
    expect(() => parseHubDocument(raw, 'x.md')).toThrow(DocumentFormatError);
    expect(() => parseHubDocument(raw, 'x.md')).toThrow(message);
  });

  it('round-trips through renderHubDocument', () => {
    const raw = renderHubDocument({ id: ID, sensitivity: 'partner', tags: ['a'], title: 'x: y' }, 'Body\n');
    const doc = parseHubDocument(raw, 'x.md');
    expect(doc.frontmatter).toEqual({ id: ID, sensitivity: 'partner', tags: ['a'], title: 'x: y' });
    expect(doc.body).toBe('Body\n');
  });
});
