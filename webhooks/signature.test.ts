import crypto from 'node:crypto';
import { newWebhookSecret, signatureHeader } from './signature';

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
