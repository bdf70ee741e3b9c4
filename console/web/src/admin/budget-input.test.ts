import { expect, test } from '@jest/globals';
import { parseBudget } from './budget-input';

test.each([
  ['25', 2500],
  ['12.50', 1250],
  ['$7.5', 750],
  [' 0 ', 0],
])('%s is %i cents', (text, cents) => {
  expect(parseBudget(text)).toEqual({ ok: true, cents });
});

test.each([
  ['', /Enter a monthly budget/],
  ['-5', /not an amount in dollars/],
  ['12.345', /at most two decimals/],
  ['ten', /not an amount/],
  ['1000001', /at most \$1,000,000/],
])('%p is refused with a reason', (text, reason) => {
  const parsed = parseBudget(text);
  expect(parsed.ok).toBe(false);
  if (!parsed.ok) expect(parsed.reason).toMatch(reason);
});
