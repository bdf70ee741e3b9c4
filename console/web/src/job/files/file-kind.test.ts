import { expect, test } from '@jest/globals';
import { fileKind, fileUrl } from './file-kind';

test.each([
  ['README.md', 'markdown'],
  ['docs/Guide.MARKDOWN', 'markdown'],
  ['site/index.html', 'html'],
  ['a.htm', 'html'],
  ['img/logo.PNG', 'image'],
  ['photo.jpeg', 'image'],
  ['src/main.ts', 'text'],
  ['Makefile', 'text'],
  ['dir.md/notes', 'text'],
])('%s is shown as %s', (path, kind) => {
  expect(fileKind(path)).toBe(kind);
});

test('a file URL encodes each segment but keeps the slashes between them', () => {
  expect(fileUrl('job-1', 'site/my page.html')).toBe('/api/v1/jobs/job-1/files/site/my%20page.html');
  expect(fileUrl('job-1', 'a#b.md', true)).toBe('/api/v1/jobs/job-1/files/a%23b.md?download=true');
});
