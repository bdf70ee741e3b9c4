import { HubPathSchema, sourceOf } from './hub-path';
import { readableLevels } from './sensitivity';

describe('hub paths', () => {
  it.each(['notes.md', 'sources/github/acme/api/.github/ci.yml.md', 'sources/slack/general/2024-01-02.md'])(
    'accepts %s',
    (p) => expect(HubPathSchema.safeParse(p).success).toBe(true),
  );
  it.each(['/etc/x.md', '../x.md', 'a/../../x.md', 'a//b.md', 'a\\b.md', 'notes.txt', './a.md'])('refuses %s', (p) =>
    expect(HubPathSchema.safeParse(p).success).toBe(false),
  );
  it('names the source of sources/<service>/… and hub otherwise', () => {
    expect(sourceOf('sources/notion/acme/page.md')).toBe('notion');
    expect(sourceOf('guides/deploy.md')).toBe('hub');
    expect(sourceOf('sources/readme.md')).toBe('hub');
  });
});

describe('readableLevels', () => {
  it('allows every level up to the clearance, and a filter only narrows it', () => {
    expect(readableLevels('internal')).toEqual(['public', 'partner', 'internal']);
    expect(readableLevels('partner', ['secret', 'public'])).toEqual(['public']);
    expect(readableLevels('public', ['secret'])).toEqual([]);
  });
});
