import type { IdentityTables, IngestTables } from '../db/qualified-tables';
import { getUser, type Queryable, type Role, type User } from '../db/users';
import type { ExhaustedBudget } from '../refusals/refusal';
import { readSpend, type Ledger } from './ledger';

/** A user's month against their budget. Admins are exempt: never over budget. */
export interface BudgetState {
  exempt: boolean;
  /** null for an exempt admin without a budget. */
  budgetCents: number | null;
  spentCents: number;
  remainingCents: number | null;
  overBudget: boolean;
  /** First instant of the current month (UTC), from which spend is summed. */
  periodStart: string;
}

/** The first instant of the calendar month (UTC) that `nowMs` falls in. */
export function monthStart(nowMs: number): Date {
  const now = new Date(nowMs);
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/**
 * The soft cap: a non-admin is over budget once month-to-date spend reaches the budget. A user without a
 * budget of their own (inserted directly, never approved) has the default.
 */
export function budgetState(
  user: { role: Role; budgetCents: number | null },
  spentCents: number,
  defaultBudgetCents: number,
  periodStart: Date,
): BudgetState {
  const exempt = user.role === 'admin';
  const budgetCents = user.budgetCents ?? (exempt ? null : defaultBudgetCents);
  return {
    exempt,
    budgetCents,
    spentCents,
    remainingCents: budgetCents === null ? null : Math.max(0, budgetCents - spentCents),
    overBudget: !exempt && budgetCents !== null && spentCents >= budgetCents,
    periodStart: periodStart.toISOString(),
  };
}

/** A user's budget as a 402 names it (refusals/refusal.ts `OverBudget`). */
export function userBudgetFigures(userId: string, state: BudgetState): ExhaustedBudget {
  const budgetCents = state.budgetCents ?? 0;
  return {
    scope: 'user',
    user_id: userId,
    budget_cents: budgetCents,
    spent_cents: state.spentCents,
    remaining_cents: Math.max(0, budgetCents - state.spentCents),
    period_start: state.periodStart,
  };
}

/**
 * Month-to-date spend of one user in whole cents (rounded up), summed from the ingest service's job_runs
 * (`cost_usd` of every job the user created this month): the shared ledger, see docs/identity.md.
 */
export async function monthToDateSpendCents(
  db: Queryable,
  ledger: IngestTables,
  userId: string,
  nowMs: number,
): Promise<number> {
  return (await readSpend(db, ledger, monthStart(nowMs), userId)).get(userId) ?? 0;
}

export interface BudgetLookup {
  identity: IdentityTables;
  ledger: IngestTables;
  defaultBudgetCents: number;
}

/**
 * The identity service's budget check (the preflight's `budget=1`, `GET /me/budget`): the user from its own tables,
 * the month's spend from the ledger, wherever that lives (jobs/ledger.ts). Undefined when the identity service does
 * not know the user.
 */
export async function readBudgetState(
  db: Queryable,
  lookup: Pick<BudgetLookup, 'identity' | 'defaultBudgetCents'>,
  ledger: Ledger,
  userId: string,
  nowMs: number,
): Promise<{ user: User; budget: BudgetState } | undefined> {
  const user = await getUser(db, lookup.identity, userId);
  if (!user) return undefined;
  const spent = await ledger.spendCents(userId, monthStart(nowMs));
  return { user, budget: budgetState(user, spent, lookup.defaultBudgetCents, monthStart(nowMs)) };
}
