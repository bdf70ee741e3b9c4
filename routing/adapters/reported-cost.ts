/**
 * The call's price in USD when the server reports one: OpenRouter's `usage.cost` (the offline demo model's `#cost=`
 * directive speaks it too). Absent, negative or not a number: no reported cost.
 */
export function reportedCostOf(usage: unknown): { reportedCostUsd?: number } {
  const cost = (usage as { cost?: unknown } | null | undefined)?.cost;
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? { reportedCostUsd: cost } : {};
}
