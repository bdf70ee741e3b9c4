import { USD_PER_1K_TOKENS, type Budget, type WorkType } from './work-types';

export interface PlanStep {
  position: number;
  level: string;
  title: string;
  /** Capabilities the step relies on (the work type's, on the writing steps). */
  capabilities: string[];
  estimated_tokens: number;
  estimated_cost_usd: Record<Budget, number>;
}

export interface WorkPlan {
  version: number;
  work_type: string;
  scenario: string;
  steps: PlanStep[];
  capabilities: Array<{ name: string; status: string }>;
  estimated_cost_usd: Record<Budget, number>;
  /** Why this plan was made: `created`, or the replan's reason. */
  reason: string;
  /** Prompts added to the steps by replans, oldest first. */
  changes: string[];
}

const round = (usd: number) => Math.round(usd * 1_000_000) / 1_000_000;

function costs(tokens: number): Record<Budget, number> {
  return {
    free: round((tokens / 1000) * USD_PER_1K_TOKENS.free),
    cheap: round((tokens / 1000) * USD_PER_1K_TOKENS.cheap),
    frontier: round((tokens / 1000) * USD_PER_1K_TOKENS.frontier),
  };
}

/**
 * A work item's plan: the work type's steps in order with their levels, the capabilities they need (and whether the
 * org has them), and the cost by budget. A replan keeps the earlier changes and adds the new reason as a step the
 * work must answer, right after the task is written, so the plan grows with what changed.
 */
export function planWork(input: {
  type: WorkType;
  description: string;
  capabilityStatus: Map<string, string>;
  version: number;
  reason: string;
  changes: string[];
}): WorkPlan {
  const templates = [...input.type.steps];
  const taskIndex = templates.findIndex((step) => step.level.startsWith('L2.'));
  const changeSteps = input.changes.map((change) => ({
    level: 'L2.architect',
    title: `adjust the task: ${change}`,
    tokens: 1_500,
  }));
  templates.splice(taskIndex + 1, 0, ...changeSteps);
  const steps: PlanStep[] = templates.map((step, i) => ({
    position: i + 1,
    level: step.level,
    title: step.title,
    capabilities: step.level.startsWith('L4.') ? [...input.type.capabilities] : [],
    estimated_tokens: step.tokens,
    estimated_cost_usd: costs(step.tokens),
  }));
  const total = steps.reduce((sum, step) => sum + step.estimated_tokens, 0);
  return {
    version: input.version,
    work_type: input.type.name,
    scenario: input.type.scenario,
    steps,
    capabilities: input.type.capabilities.map((name) => ({
      name,
      status: input.capabilityStatus.get(name) ?? 'available',
    })),
    estimated_cost_usd: costs(total),
    reason: input.reason,
    changes: [...input.changes],
  };
}
