import { decideGate, type GateCheck, type GateInput } from './gate';

const verifier = (verdict: string, deltas: string[] = []): Extract<GateCheck, { by: 'verifier' }> => ({
  by: 'verifier',
  levelId: 'job-1/L3.verifier/1',
  verdict,
  deltas,
});
const at = (check: GateCheck, over: Partial<GateInput> = {}) =>
  decideGate({ check, retries: 0, maxRetries: 3, escalated: false, hasIssuer: true, ...over });

test('a verifier pass with no blocking review passes, decided by the verifier', () => {
  expect(at(verifier('pass'))).toEqual({ decision: 'pass', levelId: 'job-1/L3.verifier/1', deltas: [] });
  expect(at({ by: 'verifier', levelId: 'v', deltas: [] }).decision).toBe('pass');
});

test('a failed verdict goes back to the executor with its deltas while retries remain', () => {
  expect(at(verifier('fail', ['add tests']), { retries: 2 })).toEqual({
    decision: 'retry',
    levelId: 'job-1/L3.verifier/1',
    deltas: ['add tests'],
  });
});

test('a blocking review fails a passed result, decided by the reviewer, with its deltas', () => {
  const check: GateCheck = { ...verifier('pass'), blocked: { levelId: 'job-1/L3.security/1', deltas: ['no secrets'] } };
  expect(at(check)).toEqual({ decision: 'retry', levelId: 'job-1/L3.security/1', deltas: ['no secrets'] });
});

test('a failed build is a failed verification, decided by the build', () => {
  expect(at({ by: 'build', levelId: 'job-1/build/1', deltas: ['tsc: 2 errors'] })).toEqual({
    decision: 'retry',
    levelId: 'job-1/build/1',
    deltas: ['tsc: 2 errors'],
  });
});

test('out of retries: escalate once to the issuer, then fail; with no issuer, fail at once', () => {
  const failed = verifier('fail', ['wrong']);
  expect(at(failed, { retries: 3 }).decision).toBe('escalate');
  expect(at(failed, { retries: 3, escalated: true }).decision).toBe('fail');
  expect(at(failed, { retries: 3, hasIssuer: false }).decision).toBe('fail');
});
