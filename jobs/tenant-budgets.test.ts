import { OverBudget } from '../refusals/refusal';
import { against, budgetFigures, spentCentsOf } from './tenant-budgets';

const MONTH = new Date('2026-11-01T00:00:00Z');

describe('against: the soft cap', () => {
  it.each([
    [100, 0, { remaining_cents: 100, over_budget: false }],
    [100, 99, { remaining_cents: 1, over_budget: false }],
    [100, 100, { remaining_cents: 0, over_budget: true }],
    [100, 250, { remaining_cents: 0, over_budget: true }],
    [0, 0, { remaining_cents: 0, over_budget: true }],
  ])('a budget of %p cents with %p spent leaves %p', (budget, spent, expected) => {
    expect(against(budget, spent)).toEqual(expected);
  });
});

describe('spentCentsOf', () => {
  const spend = {
    since: MONTH.toISOString(),
    orgs: [{ org_id: 'acme', cents: 300 }],
    projects: [
      { org_id: 'acme', project_slug: 'site', cents: 200 },
      { org_id: 'other', project_slug: 'site', cents: 7 },
    ],
  };

  it('reads an org, and a project by its org and slug; one without spend has 0', () => {
    expect(spentCentsOf(spend, 'acme', null)).toBe(300);
    expect(spentCentsOf(spend, 'acme', 'site')).toBe(200);
    expect(spentCentsOf(spend, 'other', 'site')).toBe(7);
    expect(spentCentsOf(spend, 'acme', 'docs')).toBe(0);
    expect(spentCentsOf(spend, 'nobody', null)).toBe(0);
  });
});

describe('the 402 a spent budget gives', () => {
  it('names the project, its org and what is left', () => {
    const figures = budgetFigures('project', { org_id: 'acme', project_slug: 'site' }, 4000, 4012, MONTH);
    const { over_budget: over, ...named } = figures;
    expect(over).toBe(true);
    const refusal = new OverBudget(named);
    expect(refusal.message).toBe(
      'project site of org acme: month-to-date spend $40.12 has reached its monthly budget $40.00 ($0.00 left)',
    );
    expect(refusal.details).toEqual({
      budget: {
        scope: 'project',
        org_id: 'acme',
        project_slug: 'site',
        budget_cents: 4000,
        spent_cents: 4012,
        remaining_cents: 0,
        period_start: '2026-11-01T00:00:00.000Z',
      },
    });
  });

  it('names the org, and keeps the user budget’s words', () => {
    const org = budgetFigures('org', { org_id: 'acme' }, 500, 500, MONTH);
    expect(new OverBudget(org).message).toBe(
      'org acme: month-to-date spend $5.00 has reached its monthly budget $5.00 ($0.00 left)',
    );
    const user = budgetFigures('user', { user_id: 'u1' }, 500, 500, MONTH);
    expect(new OverBudget(user).message).toBe(
      'month-to-date spend $5.00 has reached the monthly budget $5.00 ($0.00 left)',
    );
  });
});
