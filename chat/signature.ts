import crypto from 'node:crypto';

/** Requests signed longer ago than this are refused, so a captured request cannot be replayed later. */
export const SIGNATURE_MAX_AGE_SECONDS = 5 * 60;

export type SignatureVerdict =
  { ok: true } | { ok: false; reason: 'secret_unset' | 'missing_headers' | 'stale_timestamp' | 'bad_signature' };

export interface SignedRequest {
  /** `X-Slack-Request-Timestamp`: seconds since the epoch, as sent. */
  timestamp: string | undefined;
  /** `X-Slack-Signature`: `v0=<hex HMAC-SHA256>`. */
  signature: string | undefined;
  /** The body exactly as received: one changed byte must fail. */
  rawBody: Buffer;
}

/** `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>` under the signing secret (the chat system's v0 scheme). */
export function signRequest(secret: string, timestamp: string, rawBody: Buffer | string): string {
  const mac = crypto.createHmac('sha256', secret);
  mac.update(`v0:${timestamp}:`);
  mac.update(rawBody);
  return `v0=${mac.digest('hex')}`;
}

/**
 * Checks a chat-system request against the signing secret before anything reads its body. Never throws. With no
 * secret every request fails: nothing else can vouch for the sender. The comparison is constant-time so the
 * signature cannot be guessed byte by byte from response times.
 */
export function verifyRequestSignature(
  secret: string | undefined,
  request: SignedRequest,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): SignatureVerdict {
  if (!secret) return { ok: false, reason: 'secret_unset' };
  const { timestamp, signature } = request;
  if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'missing_headers' };
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_MAX_AGE_SECONDS) {
    return { ok: false, reason: 'stale_timestamp' };
  }
  const expected = Buffer.from(signRequest(secret, timestamp, request.rawBody), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  // timingSafeEqual needs equal lengths; a length mismatch reveals nothing about the secret.
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'bad_signature' };
  }
  return { ok: true };
}
