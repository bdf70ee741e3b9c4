import { containsPattern, defaultTitle, MAX_TITLE_CHARS } from './workflow-list';

test('a default title is the first non-blank line of the first prompt, whitespace folded, cut with an ellipsis', () => {
  expect(defaultTitle('\n   \n  Build   a\tpage \nsecond line')).toBe('Build a page');
  expect(defaultTitle('')).toBeNull();
  expect(defaultTitle(null)).toBeNull();
  const long = defaultTitle('x'.repeat(500))!;
  expect(long).toHaveLength(MAX_TITLE_CHARS);
  expect(long.endsWith('…')).toBe(true);
});

test('a search pattern matches its text literally: LIKE wildcards and the escape character are escaped', () => {
  expect(containsPattern('100%')).toBe('%100\\%%');
  expect(containsPattern('a_b')).toBe('%a\\_b%');
  expect(containsPattern('C:\\x')).toBe('%C:\\\\x%');
  expect(containsPattern('plain')).toBe('%plain%');
});
