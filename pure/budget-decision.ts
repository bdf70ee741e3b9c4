/**
 * The decision a job paused on its budget asks of its submitter (docs/budgets.md): raise the ceiling by an amount,
 * continue on a cheaper tier, or stop. It is asked as an ordinary `ask_user` question whose text lists the answers, so
 * every surface that answers questions (the API's resume route, the console, `keel`, the chat button) answers it with
 * no code of its own; this module writes the question and reads the answer, in the workflow and in the resume
 * Update's validator alike. Pure: workflow code imports it.
 */

/** Which budget the call would have overshot: the job's ceiling, or a monthly one (the submitter's own, a project's, an org's). */
export type BudgetScope = 'job' | 'user' | 'project' | 'org';

export type BudgetDecision =
  { kind: 'raise'; usd: number } | { kind: 'downgrade' } | { kind: 'retry' } | { kind: 'stop' };

/** The job's `model_tier` values, cheapest first (routing's budget bands): a downgrade moves one step left. */
const MODEL_TIERS = ['free', 'cheap', 'frontier'] as const;

/** The tier below `tier` (absent: `cheap`, routing's default), or undefined at the cheapest. */
export function cheaperTier(tier: string | undefined): string | undefined {
  const index = MODEL_TIERS.indexOf((tier ?? 'cheap') as (typeof MODEL_TIERS)[number]);
  return index > 0 ? MODEL_TIERS[index - 1] : undefined;
}

/**
 * The default raise: enough for the call that did not fit and as much again as the ceiling was (so a job that ran out
 * half-way can finish), rounded up to whole cents, at least one cent.
 */
export function defaultRaiseUsd(shortfallUsd: number, ceilingUsd: number): number {
  return Math.max(0.01, Math.ceil((Math.max(0, shortfallUsd) + ceilingUsd) * 100) / 100);
}

/** The answers a paused job takes for `scope`, as offered (the exact strings the question lists). */
export function budgetChoices(scope: BudgetScope, raiseUsd: number, cheaper: string | undefined): string[] {
  const first = scope === 'job' ? `raise by $${raiseUsd.toFixed(2)}` : 'retry';
  return [first, ...(cheaper ? [`downgrade to ${cheaper}`] : []), 'stop'];
}

/** The question as people read it: what was spent, what the call needs, and the answers it takes. */
export function budgetQuestion(figures: {
  scope: BudgetScope;
  limitUsd: number;
  committedUsd: number;
  estimateUsd: number;
  choices: string[];
  org_id?: string;
  project_slug?: string;
  user_id?: string;
}): string {
  const whose =
    figures.scope === 'job'
      ? "the job's budget"
      : figures.scope === 'user'
        ? `the monthly budget of user ${figures.user_id}`
        : figures.scope === 'project'
          ? `the monthly budget of project ${figures.project_slug} of org ${figures.org_id}`
          : `the monthly budget of org ${figures.org_id}`;
  const retry = figures.scope === 'job' ? '' : ' ("retry" once an admin has raised it)';
  return (
    `Budget reached: the next model call (estimated $${figures.estimateUsd.toFixed(4)}) would take ${whose} past ` +
    `$${figures.limitUsd.toFixed(2)} ($${figures.committedUsd.toFixed(4)} spent or reserved). ` +
    `Answer one of: ${figures.choices.map((c) => `"${c}"`).join(', ')}${retry}.` +
    (figures.scope === 'job' ? ' "raise by $<amount>" takes any amount.' : '')
  );
}

const RAISE = /^(?:raise|increase|add)(?:\s+(?:by|to))?\s*(?:\$\s*)?(\d+(?:\.\d+)?)?\s*(?:usd|\$)?$/i;

/**
 * Reads an answer to the budget question; undefined when it is none of the answers `scope` takes. `raise` alone takes
 * the default amount; `raise by $5`, `raise 5`, `+5`, `$5` raise by that much. A downgrade when there is no cheaper
 * tier, and a raise of a monthly budget (only an admin can, over the API), are not answers.
 */
export function parseBudgetDecision(
  answer: string,
  scope: BudgetScope,
  defaultRaise: number,
  cheaper: string | undefined,
): BudgetDecision | undefined {
  const text = answer.trim().replace(/^"|"$/g, '').trim().toLowerCase();
  if (/^(stop|cancel|abort|no)$/.test(text)) return { kind: 'stop' };
  if (cheaper && /^(downgrade|cheaper)(\s+(to\s+)?[a-z]+)?$/.test(text)) return { kind: 'downgrade' };
  if (scope !== 'job') return /^(retry|continue|resume)$/.test(text) ? { kind: 'retry' } : undefined;
  const amount = /^\+?\s*\$?\s*(\d+(?:\.\d+)?)$/.exec(text) ?? RAISE.exec(text);
  if (!amount) return undefined;
  const usd = amount[1] === undefined ? defaultRaise : Number(amount[1]);
  return Number.isFinite(usd) && usd > 0 && usd <= 1_000_000 ? { kind: 'raise', usd } : undefined;
}

/** What a paused level keeps about its open budget question, so the job's validator can read the answer early. */
export interface BudgetQuestionTerms {
  scope: BudgetScope;
  defaultRaiseUsd: number;
  cheaperTier?: string;
}
