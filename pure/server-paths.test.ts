import { withoutServerPaths } from './server-paths';

describe('withoutServerPaths', () => {
  test.each([
    ['/work/keel/scenarios/nope.yaml: no such scenario', 'nope.yaml: no such scenario'],
    ["EACCES: permission denied, open '/var/lib/keel/ws/job-1/out.md'", "EACCES: permission denied, open 'out.md'"],
    ['cannot load (/etc/keel/catalog.yaml) now', 'cannot load (catalog.yaml) now'],
    ['two: /a/b/c.txt and /d/e.txt', 'two: c.txt and e.txt'],
  ])('%s', (message, expected) => {
    expect(withoutServerPaths(message)).toBe(expected);
  });

  test.each([
    'see https://example.com/docs/page for help',
    'wrote docs/readme.md and src/a.ts',
    'the verifier said: fine',
    'ratio 1/2 of the budget',
  ])('leaves %s alone', (message) => {
    expect(withoutServerPaths(message)).toBe(message);
  });
});
