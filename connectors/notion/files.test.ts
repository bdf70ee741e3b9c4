import { safeFileName } from './files';

const hosted = (
  name: string | undefined,
  url = 'https://s3.example/a/b/Quarterly%20Report%20(v2).pdf?X-Amz-Signature=s',
) => ({
  blockId: 'b1',
  url,
  expiry: undefined,
  name,
});

describe('safeFileName', () => {
  it.each([
    [hosted('chart.png'), 'chart.png'],
    [hosted(undefined), 'Quarterly-Report-v2-.pdf'],
    [hosted('../../etc/passwd'), 'etc-passwd'],
    [hosted('notes.md'), 'notes.md.txt'],
    [hosted('日本語'), 'file'],
  ])('%j → %s', (file, expected) => {
    expect(safeFileName(file)).toBe(expected);
  });
});
