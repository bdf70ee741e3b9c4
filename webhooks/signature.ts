import crypto from 'node:crypto';

/** A new per-subscription signing secret: 32 random bytes, shown to the caller once. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64url')}`;
}

/**
 * The `Keel-Signature` header of a delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (the Stripe and
 * Slack scheme: the timestamp is signed with the body, so a captured delivery cannot be replayed later with a new one).
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const v1 = crypto.createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}
