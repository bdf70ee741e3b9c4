import { budgetChoices, budgetQuestion, cheaperTier, defaultRaiseUsd, parseBudgetDecision } from './budget-decision';

describe('the budget decision', () => {
  test('a downgrade moves one model tier cheaper; the cheapest has none', () => {
    expect(cheaperTier('frontier')).toBe('cheap');
    expect(cheaperTier(undefined)).toBe('free');
    expect(cheaperTier('cheap')).toBe('free');
    expect(cheaperTier('free')).toBeUndefined();
  });

  test('the default raise covers the call that did not fit and the ceiling again, in whole cents', () => {
    expect(defaultRaiseUsd(0.25, 1)).toBe(1.25);
    expect(defaultRaiseUsd(0.000123, 0.0001)).toBe(0.01);
    expect(defaultRaiseUsd(-1, 2)).toBe(2);
  });

  test("offers raise for the job's ceiling, retry for a monthly budget, downgrade only when there is a cheaper tier", () => {
    expect(budgetChoices('job', 1.25, 'free')).toEqual(['raise by $1.25', 'downgrade to free', 'stop']);
    expect(budgetChoices('org', 1.25, undefined)).toEqual(['retry', 'stop']);
  });

  test.each([
    ['raise by $1.25', { kind: 'raise', usd: 1.25 }],
    ['"raise by $1.25"', { kind: 'raise', usd: 1.25 }],
    ['Raise', { kind: 'raise', usd: 2 }],
    ['raise 5', { kind: 'raise', usd: 5 }],
    ['raise by 3.5 usd', { kind: 'raise', usd: 3.5 }],
    ['$7', { kind: 'raise', usd: 7 }],
    ['+0.5', { kind: 'raise', usd: 0.5 }],
    ['downgrade to free', { kind: 'downgrade' }],
    ['cheaper', { kind: 'downgrade' }],
    ['STOP', { kind: 'stop' }],
    ['cancel', { kind: 'stop' }],
  ])("reads %j for the job's ceiling", (answer, decision) => {
    expect(parseBudgetDecision(answer, 'job', 2, 'free')).toEqual(decision);
  });

  test.each(['maybe', 'raise by $0', 'raise by -3', 'retry', 'raise by $lots', ''])(
    'refuses %j for the job',
    (answer) => {
      expect(parseBudgetDecision(answer, 'job', 2, 'free')).toBeUndefined();
    },
  );

  test('a monthly budget takes retry and stop, never a raise; downgrade only with a cheaper tier', () => {
    expect(parseBudgetDecision('retry', 'org', 2, undefined)).toEqual({ kind: 'retry' });
    expect(parseBudgetDecision('raise by $5', 'project', 2, 'free')).toBeUndefined();
    expect(parseBudgetDecision('downgrade', 'org', 2, undefined)).toBeUndefined();
    expect(parseBudgetDecision('stop', 'org', 2, undefined)).toEqual({ kind: 'stop' });
  });

  test('the question names the budget, the figures and the answers', () => {
    const text = budgetQuestion({
      scope: 'project',
      org_id: 'acme',
      project_slug: 'site',
      limitUsd: 40,
      committedUsd: 39.9,
      estimateUsd: 0.25,
      choices: ['retry', 'stop'],
    });
    expect(text).toContain('the monthly budget of project site of org acme past $40.00');
    expect(text).toContain('Answer one of: "retry", "stop"');
  });
});
