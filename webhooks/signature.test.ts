import crypto from 'node:crypto';
import { newWebhookSecret, signatureHeader, signingSecrets } from './signature';

test('the signature is the hex HMAC-SHA256 of "<t>.<body>" under the secret, with its timestamp', () => {
  const body = '{"kind":"final"}';
  const header = signatureHeader('whsec_test', body, 1_795_864_800);
  const expected = crypto.createHmac('sha256', 'whsec_test').update(`1795864800.${body}`).digest('hex');
  expect(header).toBe(`t=1795864800,v1=${expected}`);
});

test('secrets are 32 random bytes, never the same twice', () => {
  const a = newWebhookSecret();
  expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  expect(newWebhookSecret()).not.toBe(a);
});

test('during a rotation the header carries one v1 per secret, the current one first', () => {
  const body = '{"kind":"final"}';
  const hmac = (secret: string) => crypto.createHmac('sha256', secret).update(`1795864800.${body}`).digest('hex');
  expect(signatureHeader(['whsec_new', 'whsec_old'], body, 1_795_864_800)).toBe(
    `t=1795864800,v1=${hmac('whsec_new')},v1=${hmac('whsec_old')}`,
  );
});

test("a rotated secret signs until its overlap's end, and not from then on", () => {
  const expires = new Date('2026-11-28T20:00:00Z');
  const sub = { secret: 'whsec_new', previous_secret: 'whsec_old', previous_secret_expires_at: expires };
  expect(signingSecrets(sub, new Date(expires.getTime() - 1))).toEqual(['whsec_new', 'whsec_old']);
  expect(signingSecrets(sub, expires)).toEqual(['whsec_new']);
  expect(signingSecrets({ ...sub, previous_secret: null, previous_secret_expires_at: null }, new Date(0))).toEqual([
    'whsec_new',
  ]);
});
