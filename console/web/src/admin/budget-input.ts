/** A monthly budget typed in dollars: the cents it means, or why it is not one. */
export type BudgetEntry = { ok: true; cents: number } | { ok: false; reason: string };

/** The identity service's ceiling for `budgetCents` (auth/routes/admin-users.ts). */
const MAX_CENTS = 100_000_000;

export function parseBudget(text: string): BudgetEntry {
  const value = text.trim().replace(/^\$/, '');
  if (value === '') return { ok: false, reason: 'Enter a monthly budget in dollars, such as 25 or 12.50.' };
  if (!/^\d+(\.\d{1,2})?$/.test(value)) {
    return { ok: false, reason: `“${text.trim()}” is not an amount in dollars: use digits and at most two decimals.` };
  }
  const cents = Math.round(Number(value) * 100);
  if (cents > MAX_CENTS) return { ok: false, reason: 'A monthly budget can be at most $1,000,000.' };
  return { ok: true, cents };
}
