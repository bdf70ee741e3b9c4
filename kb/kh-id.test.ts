import crypto from 'node:crypto';
import { khIdFor, KhIdSchema } from './kh-id';

describe('khIdFor', () => {
  it('is kh- and 26 Crockford base32 characters of the first 16 bytes of the SHA-256 of the source id', () => {
    const id = khIdFor('notion:page:1234');
    expect(KhIdSchema.parse(id)).toBe(id);
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const value = [...id.slice(3)].reduce((n, ch) => n * 32n + BigInt(alphabet.indexOf(ch)), 0n);
    const digest = crypto.createHash('sha256').update('notion:page:1234').digest().subarray(0, 16);
    expect(value.toString(16).padStart(32, '0')).toBe(digest.toString('hex'));
  });

  it('is stable for a source id and differs between source ids', () => {
    expect(khIdFor('slack:C1:2024-01-02')).toBe(khIdFor('slack:C1:2024-01-02'));
    expect(khIdFor('slack:C1:2024-01-02')).not.toBe(khIdFor('slack:C1:2024-01-03'));
  });

  it('refuses ids that are not kh-ids', () => {
    expect(KhIdSchema.safeParse('kh-123').success).toBe(false);
    expect(KhIdSchema.safeParse('kh-8ZZZZZZZZZZZZZZZZZZZZZZZZZ').success).toBe(false);
    expect(KhIdSchema.safeParse('kh-0ZZZZZZZZZZZZZZZZZZZZZZZZU').success).toBe(false);
  });
});
