/**
 * The catalog of kinds of work. Each maps to the scenario a work item of that type runs and the capabilities its
 * job needs (acquired first when the org lacks them), and lists the steps its plan is made of.
 */

export type Budget = 'free' | 'cheap' | 'frontier';

export interface PlanStepTemplate {
  /** The level that does the step, e.g. `L4.executor`. */
  level: string;
  title: string;
  /** Rough model tokens the step uses, the base of its cost estimate. */
  tokens: number;
}

export interface WorkType {
  name: string;
  title: string;
  description: string;
  scenario: string;
  capabilities: string[];
  steps: PlanStepTemplate[];
}

const plan: PlanStepTemplate = { level: 'L1.team_lead', title: 'plan the work', tokens: 2_000 };
const task: PlanStepTemplate = {
  level: 'L2.architect',
  title: 'write the task and its acceptance criteria',
  tokens: 3_000,
};
const write: PlanStepTemplate = { level: 'L4.executor', title: 'write the files', tokens: 8_000 };
const verify: PlanStepTemplate = {
  level: 'L3.verifier',
  title: 'verify against the acceptance criteria',
  tokens: 3_000,
};
const review: PlanStepTemplate = { level: 'L2.reviewer', title: 'review pass', tokens: 4_000 };

export const WORK_TYPES: readonly WorkType[] = [
  {
    name: 'feature',
    title: 'Feature',
    description: 'New behaviour in an existing codebase.',
    scenario: 'build',
    capabilities: [],
    steps: [plan, task, write, verify, review],
  },
  {
    name: 'bug-fix',
    title: 'Bug fix',
    description: 'Reproduce, fix and verify a defect.',
    scenario: 'build',
    capabilities: [],
    steps: [plan, { ...task, title: 'describe the defect and the fix' }, write, verify],
  },
  {
    name: 'docs',
    title: 'Documentation',
    description: 'Write or update documentation.',
    scenario: 'build',
    capabilities: [],
    steps: [plan, task, { ...write, tokens: 5_000 }, verify],
  },
  {
    name: 'migration',
    title: 'Migration',
    description: 'Move code or data from one shape to another, step by step.',
    scenario: 'build',
    capabilities: [],
    steps: [plan, task, write, verify, { ...write, title: 'apply the follow-up changes' }, verify, review],
  },
  {
    name: 'library',
    title: 'Library',
    description: 'A new TypeScript library.',
    scenario: 'build',
    capabilities: ['typescript-library'],
    steps: [plan, task, write, verify, review],
  },
  {
    name: 'product-build',
    title: 'Product build',
    description: 'Build a product (for example a site) that needs capabilities the team may still have to acquire.',
    scenario: 'build',
    capabilities: ['static-site'],
    steps: [plan, task, { ...write, tokens: 12_000 }, verify, review],
  },
];

export function workType(name: string): WorkType | undefined {
  return WORK_TYPES.find((type) => type.name === name);
}

/** USD per 1,000 tokens by budget: the catalog's typical price of each band (an estimate, not a quote). */
export const USD_PER_1K_TOKENS: Record<Budget, number> = { free: 0, cheap: 0.0006, frontier: 0.01 };
