import { signRequest, verifyRequestSignature } from './signature';

/** The chat system's published example of its v0 signing scheme (secret, timestamp, body and signature). */
const VECTOR = {
  secret: '8f742231b10e8888abcd99yyyzzz85a5',
  timestamp: '1531420618',
  body:
    'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V' +
    '&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=' +
    '&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN' +
    '&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
  signature: 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
};
const SIGNED_AT = Number(VECTOR.timestamp);

const request = (body: string, signature = VECTOR.signature, timestamp = VECTOR.timestamp) => ({
  timestamp,
  signature,
  rawBody: Buffer.from(body, 'utf8'),
});

test('the published test vector signs and verifies', () => {
  expect(signRequest(VECTOR.secret, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  expect(verifyRequestSignature(VECTOR.secret, request(VECTOR.body), SIGNED_AT + 10)).toEqual({ ok: true });
});

test('one changed byte of the body fails', () => {
  const tampered = VECTOR.body.replace('roadrunner', 'roadrunnes');
  expect(verifyRequestSignature(VECTOR.secret, request(tampered), SIGNED_AT)).toEqual({
    ok: false,
    reason: 'bad_signature',
  });
});

test('one changed byte of the signature fails, and so does a truncated one', () => {
  const flipped = VECTOR.signature.slice(0, -1) + (VECTOR.signature.endsWith('3') ? '4' : '3');
  expect(verifyRequestSignature(VECTOR.secret, request(VECTOR.body, flipped), SIGNED_AT).ok).toBe(false);
  expect(verifyRequestSignature(VECTOR.secret, request(VECTOR.body, 'v0=a2'), SIGNED_AT).ok).toBe(false);
});

test('a timestamp more than five minutes from now fails even with a valid signature', () => {
  expect(verifyRequestSignature(VECTOR.secret, request(VECTOR.body), SIGNED_AT + 5 * 60 + 1)).toEqual({
    ok: false,
    reason: 'stale_timestamp',
  });
  expect(verifyRequestSignature(VECTOR.secret, request(VECTOR.body), SIGNED_AT - 5 * 60 - 1).ok).toBe(false);
  expect(verifyRequestSignature(VECTOR.secret, request(VECTOR.body), SIGNED_AT + 5 * 60)).toEqual({ ok: true });
});

test('an unset secret fails every request, the published one included', () => {
  expect(verifyRequestSignature(undefined, request(VECTOR.body), SIGNED_AT)).toEqual({
    ok: false,
    reason: 'secret_unset',
  });
  expect(verifyRequestSignature('', request(VECTOR.body), SIGNED_AT).ok).toBe(false);
});

test('missing or malformed headers fail', () => {
  expect(verifyRequestSignature(VECTOR.secret, { ...request(VECTOR.body), signature: undefined }, SIGNED_AT)).toEqual({
    ok: false,
    reason: 'missing_headers',
  });
  expect(verifyRequestSignature(VECTOR.secret, request(VECTOR.body, VECTOR.signature, 'soon'), SIGNED_AT).ok).toBe(
    false,
  );
});
