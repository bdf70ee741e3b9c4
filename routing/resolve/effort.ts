/**
 * The effort ladder (spec "Effort ladder"): which rung a level asks for, and which of a model's `effort` entries is
 * actually sent for it.
 */
import type { ModelRow } from '../catalog/types';
import { RUNGS, rungRank, strongestRung, type Rung } from '../../pure/rungs';
import { REQUIREMENT_RULES, isRequirement, modelId } from './requirements';

/** What the ladder sends for one model: the rung and its vendor fragment, or nothing; `note` is a log line. */
export interface EffortChoice {
  /** The rung sent; undefined when no effort fragment is sent. */
  rung?: Rung;
  /** The model's `effort[rung]` fragment (a copy: callers may merge it into a request body). */
  fragment?: Record<string, unknown>;
  note?: string;
}

export function isRung(value: string): value is Rung {
  return (RUNGS as readonly string[]).includes(value);
}

/**
 * The fragment to send `model` for a requested rung. A missing rung rounds UP to the next stronger rung the model
 * has; only when none is stronger does it fall to the model's ceiling (its strongest rung above `none`), with a
 * note since the model then reasons less than asked. `none` never rounds up: the model's `none` entry is sent when
 * it has one (some vendors need an explicit "off"), otherwise nothing. Effort asked of a model without feature
 * `reasoning` or without an effort map is dropped with a note, never raised. Nothing requested sends nothing.
 */
export function resolveEffort(model: ModelRow, requested: Rung | undefined): EffortChoice {
  if (requested === undefined) return {};
  const id = modelId(model);
  const ladder = model.features.includes('reasoning') ? model.effort : undefined;
  if (ladder === undefined || Object.keys(ladder).length === 0) {
    // Asking a model that does not reason for no reasoning is already satisfied; nothing was dropped.
    if (requested === 'none') return {};
    const why = model.features.includes('reasoning') ? 'has no effort map' : 'is not a reasoning model';
    return { note: `effort ${requested} dropped for ${id}: it ${why}` };
  }
  if (requested === 'none') {
    const off = ladder.none;
    return off === undefined ? {} : { rung: 'none', fragment: copyFragment(off) };
  }
  for (const rung of RUNGS.slice(rungRank(requested))) {
    const fragment = ladder[rung];
    if (fragment !== undefined) return { rung, fragment: copyFragment(fragment) };
  }
  for (const rung of [...RUNGS].reverse()) {
    const fragment = ladder[rung];
    if (rung !== 'none' && fragment !== undefined) {
      return {
        rung,
        fragment: copyFragment(fragment),
        note: `effort ${requested} above the ceiling of ${id}; sending its ceiling ${rung}`,
      };
    }
  }
  // The map has only `none`: there is no ceiling to fall to, and `none` would switch reasoning off.
  return { note: `effort ${requested} dropped for ${id}: its effort map has no rung above none` };
}

/**
 * The rung a level requests of one candidate. Precedence: the level's own constraint, then a `@rung` suffix on the
 * pin or fallback pattern that produced the candidate, then the tier default of its requirements
 * (`high_reasoning` implies `high`, `fast_cheap` implies `none`; when both are declared the stronger, `high`, wins,
 * because under-reasoning fails the task while over-reasoning only costs more). Unknown requirement names are
 * ignored here; resolution notes them.
 */
export function effectiveRung(
  levelEffort: Rung | undefined,
  patternRung: Rung | undefined,
  requirements: readonly string[] | undefined,
): Rung | undefined {
  if (levelEffort !== undefined) return levelEffort;
  if (patternRung !== undefined) return patternRung;
  const defaults = (requirements ?? []).filter(isRequirement).map((name) => REQUIREMENT_RULES[name].defaultRung);
  return strongestRung(defaults);
}

/** A deep copy of a fragment. Fragments are JSON (they come from the catalog file), so a JSON round trip suffices. */
function copyFragment(fragment: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(fragment)) as Record<string, unknown>;
}
