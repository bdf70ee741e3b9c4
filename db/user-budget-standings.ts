import type { Queryable } from './users';

/**
 * A user's monthly budget as the identity service last answered it at a submission or a resume (migration 0033): what
 * a reservation before each model call of their jobs holds them to (db/budget-reservations.ts). null: no cap.
 */
export async function recordUserBudget(db: Queryable, userId: string, budgetCents: number | null): Promise<void> {
  await db.query(
    `INSERT INTO user_budget_standings (user_id, budget_cents) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET budget_cents = EXCLUDED.budget_cents, read_at = now()`,
    [userId, budgetCents],
  );
}

/** The user's last known monthly budget in cents; undefined when none was ever recorded, null for no cap. */
export async function userBudgetOf(db: Queryable, userId: string): Promise<number | null | undefined> {
  const { rows } = await db.query<{ budget_cents: number | null }>(
    'SELECT budget_cents FROM user_budget_standings WHERE user_id = $1',
    [userId],
  );
  return rows[0] === undefined ? undefined : rows[0].budget_cents;
}
