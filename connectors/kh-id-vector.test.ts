import { khIdFor } from '../kb/kh-id';

// Published test vectors of the kh-id (docs/connectors.md, "Identity"): the first 16 bytes of SHA-256(source_id) read
// as one big-endian 128-bit number, written most significant 5-bit group first (2 zero bits pad the front).
describe('kh-id test vectors', () => {
  it.each([
    ['github:acme/widgets:README.md', 'kh-6MFQT9WNYMBPDWQMBE1FNVTR0N'],
    ['notion:page:1234', 'kh-2T9RAPYP23RS7ZKHQHQ3WDNWPR'],
  ])('%s → %s', (sourceId, expected) => {
    expect(khIdFor(sourceId)).toBe(expected);
  });
});
