import crypto from 'node:crypto';

/** A new per-subscription signing secret: 32 random bytes, shown to the caller once. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64url')}`;
}

/**
 * The `Keel-Signature` header of a delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (the Stripe and
 * Slack scheme: the timestamp is signed with the body, so a captured delivery cannot be replayed later with a new one).
 */
export function signatureHeader(secret: string | readonly string[], body: string, unixSeconds: number): string {
  // Several secrets (a rotation's overlap): one `v1=` each, current first, as Stripe does; a receiver accepts the
  // delivery when any of them verifies with a secret it holds.
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const signatures = secrets.map(
    (one) => `v1=${crypto.createHmac('sha256', one).update(`${unixSeconds}.${body}`).digest('hex')}`,
  );
  return [`t=${unixSeconds}`, ...signatures].join(',');
}

/**
 * The secrets that sign a subscription's delivery at `now`: the current one, and the one a rotation replaced while its
 * overlap lasts (until `previous_secret_expires_at`, exclusive).
 */
export function signingSecrets(
  sub: { secret: string; previous_secret: string | null; previous_secret_expires_at: Date | null },
  now: Date,
): string[] {
  const overlapping =
    sub.previous_secret !== null &&
    sub.previous_secret_expires_at !== null &&
    now.getTime() < sub.previous_secret_expires_at.getTime();
  return overlapping ? [sub.secret, sub.previous_secret!] : [sub.secret];
}
