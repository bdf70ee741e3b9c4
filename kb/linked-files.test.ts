import { linkedFilePaths } from './linked-files';

describe('linkedFilePaths', () => {
  it("resolves images and links to non-markdown files against the document's directory", () => {
    const body = [
      '![chart](review.files/0123456789ab-chart.png)',
      '[the spec](../specs/v2%20final.pdf) and [a page](other.md) and [anchor](#top)',
      '![remote](https://img.example/x.png) [root](/etc/passwd) [out](../../../../outside.zip)',
      '- ![nested](review.files/b.gif "title")',
    ].join('\n\n');
    expect(linkedFilePaths('sources/notion/acme/review.md', body).sort()).toEqual([
      'sources/notion/acme/review.files/0123456789ab-chart.png',
      'sources/notion/acme/review.files/b.gif',
      'sources/notion/specs/v2 final.pdf',
    ]);
  });
});
