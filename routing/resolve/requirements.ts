/**
 * The spec's requirement table ("Tiers and capability routing") as data, and the checks routing runs against it.
 *
 * A requirement has two kinds of constraint, checked separately because explicit pins treat them differently:
 * - capability (features, context window, the effort ladder): a model that lacks one cannot serve the level, so it
 *   is refused everywhere, pins included;
 * - cost tier (`fast_cheap`'s free/cheap set, and the free-model rule): a price choice, which a pattern naming one
 *   model exactly overrides (see resolve.ts).
 *
 * Decisions where the spec is ambiguous:
 * - `high_reasoning` needs feature `reasoning` AND an effort map that can serve `high` without falling back to its
 *   ceiling, i.e. a `high` or `max` entry (the ladder rounds a missing `high` up to `max`). A reasoning model with
 *   no effort map, or whose ladder tops out below `high`, is refused: routing could not ask it for `high`. The
 *   cost tier is not checked, so a `cheap` model with a `high` rung qualifies (spec: cheap is not excluded).
 * - `fast_cheap`'s "effort none" is its default rung (see effort.ts), not a filter: every model can be sent no
 *   effort fragment.
 * - Free models appear only under `fast_cheap` (spec), and ALSO under the `free` budget: there the band itself is
 *   `free`, the user chose it and dispatch goes through the free-quota ledger, so the spec's reason for the rule
 *   (paid dispatch bypassing the ledger) does not hold. Without this a free-budget level lacking `fast_cheap`
 *   would filter every free model out, drop its band and silently run on paid models.
 */
import type { Feature, ModelRow, Requirement, Rung, Tier } from '../catalog/types';
import { REQUIREMENTS, RUNGS } from '../catalog/types';

/** One row of the requirement table. Every field is optional; an absent field constrains nothing. */
export interface RequirementRule {
  /** Features the model must declare. */
  features?: readonly Feature[];
  /** Minimum `context_tokens`. */
  minContext?: number;
  /** The model's effort ladder must reach this rung or a stronger one (rounding up, never via the ceiling). */
  servesRung?: Rung;
  /** Cost tiers admitted; a cost constraint, so an exactly named pin or fallback overrides it. */
  tiers?: readonly Tier[];
  /** The rung this requirement implies when neither the level nor a `@rung` suffix names one. */
  defaultRung?: Rung;
}

/** The spec's table, one rule per requirement name. */
export const REQUIREMENT_RULES: Readonly<Record<Requirement, RequirementRule>> = {
  long_context: { minContext: 200_000 },
  high_reasoning: { features: ['reasoning'], servesRung: 'high', defaultRung: 'high' },
  code_generation: { features: ['tool_use'] },
  multimodal: { features: ['vision'] },
  fast_cheap: { tiers: ['free', 'cheap'], defaultRung: 'none' },
};

/** The budget whose band is `free`; under it free models are admitted without `fast_cheap`. */
const FREE_BUDGET = 'free';

export function isRequirement(name: string): name is Requirement {
  return (REQUIREMENTS as readonly string[]).includes(name);
}

/** `provider/model`, the id used in notes and candidate keys. */
export function modelId(model: Pick<ModelRow, 'provider' | 'model'>): string {
  return `${model.provider}/${model.model}`;
}

/**
 * Splits a level's requirement names into known requirements (deduplicated, in the given order) and notes for
 * unknown names, which are ignored rather than raised: a typo in a scenario must not stop a job.
 */
export function parseRequirements(names: readonly string[] | undefined): {
  requirements: Requirement[];
  notes: string[];
} {
  const requirements: Requirement[] = [];
  const notes: string[] = [];
  for (const name of names ?? []) {
    if (!isRequirement(name)) {
      notes.push(`unknown requirement '${name}' ignored; known: ${REQUIREMENTS.join(', ')}`);
    } else if (!requirements.includes(name)) {
      requirements.push(name);
    }
  }
  return { requirements, notes };
}

/**
 * Why `model` cannot serve `requirement`'s capability constraints, as a refusal message naming both the model and
 * what it lacks (e.g. `openai/gpt-4o-mini lacks feature vision required by multimodal`); undefined when it can.
 * Takes any string because levels declare requirements as strings: an unknown name requires nothing here
 * (`parseRequirements` is where it is noted). Cost tiers are not checked here (see `costRefusal`).
 */
export function missingCapability(model: ModelRow, requirement: string): string | undefined {
  if (!isRequirement(requirement)) return undefined;
  const rule = REQUIREMENT_RULES[requirement];
  const id = modelId(model);
  for (const feature of rule.features ?? []) {
    if (!model.features.includes(feature)) return `${id} lacks feature ${feature} required by ${requirement}`;
  }
  if (rule.minContext !== undefined && model.context_tokens < rule.minContext) {
    return `${id} has context ${model.context_tokens}, below the ${rule.minContext} required by ${requirement}`;
  }
  if (rule.servesRung !== undefined && !laddersTo(model, rule.servesRung)) {
    return `${id} has no effort rung at or above ${rule.servesRung} required by ${requirement}`;
  }
  return undefined;
}

/** The first capability refusal across `requirements`, or undefined when the model meets them all. */
export function firstMissingCapability(model: ModelRow, requirements: readonly Requirement[]): string | undefined {
  for (const requirement of requirements) {
    const missing = missingCapability(model, requirement);
    if (missing !== undefined) return missing;
  }
  return undefined;
}

/** Whether free-tier models may be candidates: under `fast_cheap`, or under the `free` budget (see the header). */
export function freeAdmitted(requirements: readonly Requirement[], budget: string | undefined): boolean {
  return requirements.includes('fast_cheap') || budget === FREE_BUDGET;
}

/**
 * Why `model`'s cost tier keeps it out of a level with these requirements and budget (a requirement's `tiers`,
 * then the free-model rule), or undefined when it is admitted.
 */
export function costRefusal(
  model: ModelRow,
  requirements: readonly Requirement[],
  budget: string | undefined,
): string | undefined {
  const id = modelId(model);
  for (const requirement of requirements) {
    const tiers = REQUIREMENT_RULES[requirement].tiers;
    if (tiers !== undefined && !tiers.includes(model.cost_tier)) {
      return `${id} is tier ${model.cost_tier}, outside ${tiers.join('/')} required by ${requirement}`;
    }
  }
  if (model.cost_tier === 'free' && !freeAdmitted(requirements, budget)) {
    // A free model reached through paid dispatch would bypass the free-quota ledger.
    return `${id} is a free model, admitted only under fast_cheap or the free budget`;
  }
  return undefined;
}

/** Whether the model's effort map has `rung` or a stronger rung, so a request for `rung` rounds up rather than down. */
function laddersTo(model: ModelRow, rung: Rung): boolean {
  if (!model.features.includes('reasoning') || model.effort === undefined) return false;
  const ladder = model.effort;
  return RUNGS.slice(RUNGS.indexOf(rung)).some((r) => ladder[r] !== undefined);
}
