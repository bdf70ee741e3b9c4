import { extractLinks } from './links';

describe('extractLinks', () => {
  it('resolves relative markdown links and kh-ids into the hub, keeps other links unresolved', () => {
    const body = [
      'See [setup](../setup.md#install), [ref](kh:kh-0000000000000000000000000A), [site](https://example.com),',
      '[escape](../../../etc/passwd.md), [anchor](#top) and ![img](pic.md).',
    ].join('\n');
    expect(extractLinks('guides/ops/deploy.md', body)).toEqual([
      { href: '../setup.md#install', targetPath: 'guides/setup.md', targetKhId: null },
      { href: 'kh:kh-0000000000000000000000000A', targetPath: null, targetKhId: 'kh-0000000000000000000000000A' },
      { href: 'https://example.com', targetPath: null, targetKhId: null },
      { href: '../../../etc/passwd.md', targetPath: null, targetKhId: null },
      { href: '#top', targetPath: null, targetKhId: null },
    ]);
  });
});
