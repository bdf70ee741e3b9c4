import { checkPayload } from './envelope';

test('product-build payloads are checked at append: a good one passes, a malformed one is refused', () => {
  const scope = {
    level_id: 'j/L1.team_lead/prelude',
    verdict: 'out_of_scope',
    rule: 'no payments',
    matched: ['payments'],
    rules_checked: 1,
  };
  expect(checkPayload('scope_checked', scope)).toEqual(scope);
  expect(() => checkPayload('scope_checked', { ...scope, verdict: 'maybe' })).toThrow();
  const failed = {
    level_id: 'j/L3.build_verifier/1',
    attempt: 1,
    step: 'build',
    command: 'node build.mjs',
    exit_code: null,
    killed: 'timeout',
    duration_ms: 12,
    output_tail: '',
    network: 'netns',
  };
  expect(() => checkPayload('build_verify_failed', failed)).not.toThrow();
  expect(() => checkPayload('build_verify_passed', { ...failed, exit_code: 1, killed: undefined })).toThrow();
  expect(() => checkPayload('vercel_deploy_failed', { level_id: 'x', status: 402 })).toThrow();
  const open = { level_id: 'j/L2.release_manager/r', action: 'open_url', target: 'https://x', label: 'Open' };
  expect(() => checkPayload('ui_action', open)).not.toThrow();
  expect(() => checkPayload('ui_action', { ...open, level_id: undefined })).toThrow();
});
