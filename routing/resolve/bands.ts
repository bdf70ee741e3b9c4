/**
 * Budget → band by role prefix (spec "Budget to band, by role prefix"), and the band ordering rules 1–3.
 *
 * Ordering decisions (the spec says only "strongest" / "cheapest" and "price breaks ties"):
 * - A band led by `mid` or `frontier` orders strongest first: tier descending, then `preference` ascending (unset
 *   last: the catalog's cost-tuned order), then price DESCENDING. Within a tier with no preference, the vendor's
 *   price is the best available proxy for strength, so the pricier model is presumed the stronger.
 * - A band led by `cheap` or `free`, and the absence of any band (no preference, so the default budget's rule),
 *   orders cheapest first: tier ascending, then `preference` ascending, then price ascending.
 * - Price is input + output per 1k tokens; a model without a price (free) counts as 0. Remaining ties keep catalog
 *   order (the sort is stable), so the result is deterministic for a given catalog.
 */
import type { ModelRow, Tier } from '../catalog/types';
import { TIERS } from '../catalog/types';

export const BUDGETS = ['free', 'cheap', 'frontier'] as const;
export type Budget = (typeof BUDGETS)[number];

/** The budget a job without `model_tier` runs under. */
export const DEFAULT_BUDGET: Budget = 'cheap';

export const LEVELS = ['L1', 'L2', 'L3', 'L4'] as const;
export type Level = (typeof LEVELS)[number];

/** The spec's table: each band lists its tiers, leading tier first. */
export const BUDGET_BANDS: Readonly<Record<Budget, Readonly<Record<Level, readonly Tier[]>>>> = {
  free: { L1: ['free'], L2: ['free'], L3: ['free'], L4: ['free'] },
  cheap: { L1: ['cheap'], L2: ['cheap'], L3: ['cheap'], L4: ['cheap'] },
  frontier: { L1: ['cheap'], L2: ['frontier', 'mid'], L3: ['cheap'], L4: ['frontier', 'mid'] },
};

export type BandOrder = 'strongest_first' | 'cheapest_first';

/**
 * The level of a role: its `L1`–`L4` prefix followed by `.` or nothing, case-insensitive (the same reading as the
 * demo model's level contract). Undefined for any other role.
 */
export function levelOf(role: string): Level | undefined {
  const match = /^l([1-4])(?:\.|$)/i.exec(role.trim());
  return match ? (`L${match[1]}` as Level) : undefined;
}

function isBudget(value: string): value is Budget {
  return (BUDGETS as readonly string[]).includes(value);
}

/**
 * The band for a role under a budget (absent budget → `cheap`). An unknown budget or a role without an `L1`–`L4`
 * prefix means no preference: `band` is null and `note` says why; this never raises (band rule 3).
 */
export function bandFor(role: string, budget: string | undefined): { band: Tier[] | null; note?: string } {
  const effective = budget ?? DEFAULT_BUDGET;
  if (!isBudget(effective)) {
    return { band: null, note: `unknown budget '${effective}' for ${role}; no band, no tier preference` };
  }
  const level = levelOf(role);
  if (level === undefined) {
    return { band: null, note: `role '${role}' has no L1.–L4. prefix; no band, no tier preference` };
  }
  return { band: [...BUDGET_BANDS[effective][level]] };
}

/** Band rules 1 and 2: strongest first when the leading tier is `mid` or `frontier`, else cheapest first. */
export function bandOrder(band: readonly Tier[] | null): BandOrder {
  const lead = band?.[0];
  return lead === 'mid' || lead === 'frontier' ? 'strongest_first' : 'cheapest_first';
}

/** Input + output price per 1k tokens; 0 when unpriced (free models). */
export function pricePer1k(model: ModelRow): number {
  return model.pricing_per_1k === undefined ? 0 : model.pricing_per_1k.input + model.pricing_per_1k.output;
}

/** A copy of `models` in `order` (see the header for the keys). */
export function orderModels(models: readonly ModelRow[], order: BandOrder): ModelRow[] {
  const sign = order === 'strongest_first' ? -1 : 1;
  return [...models].sort(
    (a, b) =>
      sign * (TIERS.indexOf(a.cost_tier) - TIERS.indexOf(b.cost_tier)) ||
      comparePreference(a.preference, b.preference) ||
      sign * (pricePer1k(a) - pricePer1k(b)),
  );
}

/** Lower preference first; unset after every set value, in either order direction. */
function comparePreference(a: number | undefined, b: number | undefined): number {
  if (a === undefined) return b === undefined ? 0 : 1;
  if (b === undefined) return -1;
  return a - b;
}
