import crypto from 'node:crypto';
import { z } from 'zod';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `kh-` and 26 Crockford base32 characters (128 bits, so the first character is 0–7, as in a ULID). */
export const KhIdSchema = z
  .string()
  .regex(/^kh-[0-7][0-9A-HJKMNP-TV-Z]{25}$/, 'a kh-id: kh- and 26 Crockford base32 characters');
export type KhId = z.infer<typeof KhIdSchema>;

/**
 * The hub identity of an upstream record (connectors spec): the first 16 bytes of the SHA-256 of its stable
 * `source_id`, as 26 Crockford base32 characters. The same source id always gives the same kh-id.
 */
export function khIdFor(sourceId: string): KhId {
  const digest = crypto.createHash('sha256').update(sourceId, 'utf8').digest();
  let value = BigInt(`0x${digest.subarray(0, 16).toString('hex')}`);
  let out = '';
  for (let i = 0; i < 26; i += 1) {
    out = CROCKFORD[Number(value & 31n)]! + out;
    value >>= 5n;
  }
  return `kh-${out}`;
}
