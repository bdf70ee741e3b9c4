import type { IdentityTables, IngestTables } from '../db/qualified-tables';
import { getUser, type Queryable, type Role, type User } from '../db/users';

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
  const { rows } = await db.query<{ cents: string }>(
    `SELECT CEIL(COALESCE(SUM(cost_usd), 0) * 100)::bigint AS cents
       FROM ${ledger.jobRuns} WHERE created_by = $1 AND created_at >= $2`,
    [userId, monthStart(nowMs)],
  );
  return Number(rows[0]?.cents ?? 0);
}

/** Month-to-date spend of every user with spend this month, for the admin listing. */
export async function monthToDateSpendByUser(
  db: Queryable,
  ledger: IngestTables,
  nowMs: number,
): Promise<Map<string, number>> {
  const { rows } = await db.query<{ created_by: string; cents: string }>(
    `SELECT created_by, CEIL(SUM(cost_usd) * 100)::bigint AS cents
       FROM ${ledger.jobRuns} WHERE created_at >= $1 GROUP BY created_by`,
    [monthStart(nowMs)],
  );
  return new Map(rows.map((row) => [row.created_by, Number(row.cents)]));
}

export interface BudgetLookup {
  identity: IdentityTables;
  ledger: IngestTables;
  defaultBudgetCents: number;
}

/**
 * The one budget check both services end in: the identity preflight (`budget=1`) and the ingest service's
 * submission gate. Undefined when the identity service does not know the user.
 */
export async function readBudgetState(
  db: Queryable,
  lookup: BudgetLookup,
  userId: string,
  nowMs: number,
): Promise<{ user: User; budget: BudgetState } | undefined> {
  const user = await getUser(db, lookup.identity, userId);
  if (!user) return undefined;
  const spent = await monthToDateSpendCents(db, lookup.ledger, userId, nowMs);
  return { user, budget: budgetState(user, spent, lookup.defaultBudgetCents, monthStart(nowMs)) };
}
