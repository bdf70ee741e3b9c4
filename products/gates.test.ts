import { checkScope, isYes, rulesIn } from './gates';

test('a forbidding rule the request touches decides out_of_scope and is named', () => {
  const check = checkScope('Build a landing page for a bakery that takes payments', [
    'use British spelling',
    'no payment processing',
  ]);
  expect(check).toEqual({
    verdict: 'out_of_scope',
    rule: 'no payment processing',
    matched: ['payment'],
    rules_checked: 2,
  });
});

test('a limiting rule the request does not meet is borderline; one it meets is in scope', () => {
  expect(checkScope('a CLI to rename photos', ['only web pages'])).toMatchObject({
    verdict: 'borderline',
    rule: 'only web pages',
  });
  expect(checkScope('a landing page for a bakery', ['only web pages'])).toMatchObject({
    verdict: 'in_scope',
    rule: 'only web pages',
    matched: ['pages'],
  });
});

test('no rules, or rules of no gating shape, leave the request in scope with no deciding rule', () => {
  expect(checkScope('anything at all', [])).toEqual({ verdict: 'in_scope', rule: null, matched: [], rules_checked: 0 });
  expect(checkScope('a bakery page', ['write tests first'])).toMatchObject({ verdict: 'in_scope', rule: null });
});

test('rules are read from the kept rules.md format; yes-answers are recognised', () => {
  expect(rulesIn('# Rules\n\n- no payments\n- only web pages\n')).toEqual(['no payments', 'only web pages']);
  expect(['yes', 'Yes, go', 'ok', 'proceed anyway', 'go ahead'].every(isYes)).toBe(true);
  expect(['no', 'nope', 'not now', ''].some(isYes)).toBe(false);
});
