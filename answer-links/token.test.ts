import crypto from 'node:crypto';
import { answerLinkId, signAnswerLink, verifyAnswerLink, type AnswerLinkClaims } from './token';
import { answerUrlFor } from './mint';

const SECRET = 'a'.repeat(32);
const claims: AnswerLinkClaims = { job_id: 'job-1', kind: 'question', target: 'call-1', expires_at: 2_000_000_000 };

test('a token verifies to its claims, and the same claims always give the same token', () => {
  const token = signAnswerLink(claims, SECRET);
  expect(signAnswerLink(claims, SECRET)).toBe(token);
  expect(verifyAnswerLink(token, SECRET)).toEqual(claims);
  expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
});

test('any change to a token, or another secret, is refused', () => {
  const token = signAnswerLink(claims, SECRET);
  const [body, signature] = token.split('.') as [string, string];
  const otherBody = Buffer.from(JSON.stringify({ j: 'job-2', k: 'question', t: 'call-1', e: 2_000_000_000 })).toString(
    'base64url',
  );
  for (const bad of [
    `${otherBody}.${signature}`,
    `${body}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
    `${body}.${signature}x`,
    `${body}.${signature}.x`,
    body,
    '',
    '.',
    `${'x'.repeat(2000)}.${signature}`,
  ]) {
    expect(verifyAnswerLink(bad, SECRET)).toBeNull();
  }
  expect(verifyAnswerLink(token, 'b'.repeat(32))).toBeNull();
});

test('claims of the wrong shape are refused even when signed', () => {
  // Signed by the right secret but not claims this version reads (a field missing): refused, not half-read.
  const body = Buffer.from(JSON.stringify({ j: 'job-1', k: 'question', e: 1 })).toString('base64url');
  const mac = crypto.createHmac('sha256', SECRET).update(`keel-answer-link.v1.${body}`).digest('base64url');
  expect(verifyAnswerLink(`${body}.${mac}`, SECRET)).toBeNull();
});

test('a link id names the link without holding the token', () => {
  const token = signAnswerLink(claims, SECRET);
  expect(answerLinkId(token)).toMatch(/^[0-9a-f]{16}$/);
  expect(token).not.toContain(answerLinkId(token));
});

describe('answerUrlFor', () => {
  const settings = { baseUrl: 'https://keel.example.com', ttlSeconds: 60, secret: SECRET };

  test.each([
    ['ask_user', { call_id: 'c1' }, 'question', 'c1'],
    ['approval_requested', { approval_id: 'ap-1', call_id: 'c2' }, 'approval', 'ap-1'],
    ['human_task_assigned', { task_id: 'ht-1' }, 'task', 'ht-1'],
  ])('%s gets a link to its %s', (kind, payload, linkKind, target) => {
    const url = answerUrlFor(settings, 'job-9', kind, payload, 1_000_000)!;
    expect(url.startsWith('https://keel.example.com/answer/')).toBe(true);
    expect(verifyAnswerLink(url.slice(url.lastIndexOf('/') + 1), SECRET)).toEqual({
      job_id: 'job-9',
      kind: linkKind,
      target,
      expires_at: 1_000 + 60,
    });
  });

  test('other kinds, and a payload without the id, get none', () => {
    expect(answerUrlFor(settings, 'job-9', 'final', { call_id: 'c1' }, 0)).toBeUndefined();
    expect(answerUrlFor(settings, 'job-9', 'ask_user', {}, 0)).toBeUndefined();
  });
});
