/**
 * Monthly budgets of orgs and projects (docs/budgets.md), beside the identity service's per-user budget: stored in the
 * ingest database (`tenant_budgets`, migration 0021), held against month-to-date spend from the one ledger
 * (jobs/ledger.ts), checked at submission by `admit` (jobs/admit.ts). `tenantBudgetFigures` is the lookup a later check
 * before each model call reuses: it answers what is left of every budget that binds a job.
 */
import { budgetsFor, type TenantBudgetRow } from '../db/tenant-budgets';
import type { Queryable } from '../db/users';
import type { BudgetScope, ExhaustedBudget } from '../refusals/refusal';
import { monthStart } from './budget';
import type { Ledger, TenantSpend } from './ledger';

/** A project is named by its org and slug: slugs are per org. */
export interface ProjectRef {
  orgId: string;
  slug: string;
}

/** Where a job's spend is counted: its org (the submitter's) and the project of its workflow, when it has one. */
export interface SpendTarget {
  orgId: string;
  project?: ProjectRef;
}

/** One budget's month: what it is, what was spent, what is left, and whether spend has reached it. */
export interface BudgetFigures extends ExhaustedBudget {
  over_budget: boolean;
}

/** The soft cap's rule, a user's too: over once month-to-date spend reaches the budget; what is left is never negative. */
export function against(budgetCents: number, spentCents: number): { remaining_cents: number; over_budget: boolean } {
  return { remaining_cents: Math.max(0, budgetCents - spentCents), over_budget: spentCents >= budgetCents };
}

/** The figures of one budget this month. */
export function budgetFigures(
  scope: BudgetScope,
  names: Pick<ExhaustedBudget, 'user_id' | 'org_id' | 'project_slug'>,
  budgetCents: number,
  spentCents: number,
  periodStart: Date,
): BudgetFigures {
  return {
    scope,
    ...names,
    budget_cents: budgetCents,
    spent_cents: spentCents,
    ...against(budgetCents, spentCents),
    period_start: periodStart.toISOString(),
  };
}

/** The spend of one org, or of one project, in a ledger answer (0 when it has none). */
export function spentCentsOf(spend: TenantSpend, orgId: string, projectSlug: string | null): number {
  if (projectSlug === null) return spend.orgs.find((o) => o.org_id === orgId)?.cents ?? 0;
  return spend.projects.find((p) => p.org_id === orgId && p.project_slug === projectSlug)?.cents ?? 0;
}

function figuresOf(row: TenantBudgetRow, spend: TenantSpend, periodStart: Date): BudgetFigures {
  const spent = spentCentsOf(spend, row.org_id, row.project_slug);
  return row.project_slug === null
    ? budgetFigures('org', { org_id: row.org_id }, row.budget_cents, spent, periodStart)
    : budgetFigures(
        'project',
        { org_id: row.org_id, project_slug: row.project_slug },
        row.budget_cents,
        spent,
        periodStart,
      );
}

/**
 * The project's and the org's budgets that bind a job of `target` this month, project first, with month-to-date spend
 * read from `ledger`; empty when neither has a budget (then the ledger is not read at all).
 */
export async function tenantBudgetFigures(
  db: Queryable,
  ledger: Ledger,
  target: SpendTarget,
  nowMs: number,
): Promise<BudgetFigures[]> {
  const rows = await budgetsFor(db, target.orgId, target.project);
  if (rows.length === 0) return [];
  const since = monthStart(nowMs);
  const orgs = [...new Set(rows.map((row) => row.org_id))];
  const spends = new Map(
    await Promise.all(orgs.map(async (org) => [org, await ledger.tenantSpend(since, org)] as const)),
  );
  return rows
    .map((row) => figuresOf(row, spends.get(row.org_id)!, since))
    .sort((a, b) => (a.scope === b.scope ? 0 : a.scope === 'project' ? -1 : 1));
}
