import { Link } from 'react-router';
import { PromptList, type Budget } from '../schemas';
import { formatCents, formatUsd } from '../time';
import { useResource } from '../use-resource';
import type { JobView } from './derive';

/** The prompt that started the job, as Keel stored it (redacted at submission), from its workflow's prompt thread. */
export function JobPrompt({ workflowId, promptId }: { workflowId: string; promptId: string }) {
  const prompts = useResource(`/api/v1/workflows/${encodeURIComponent(workflowId)}/prompts`, PromptList);
  const prompt = prompts.data?.prompts.find((p) => p.prompt_id === promptId);
  if (!prompt) return null;
  return (
    <figure className="job-prompt">
      <figcaption className="hint">Prompt</figcaption>
      <blockquote data-testid="job-prompt">{prompt.prompt}</blockquote>
    </figure>
  );
}

/** Tokens and cost of the job so far: `final`'s totals once it arrived, the finished runs' sum until then. */
export function JobTotals({ view, budget }: { view: JobView; budget: Budget | undefined }) {
  const t = view.tokens;
  return (
    <>
      <dt>Tokens</dt>
      <dd data-testid="job-tokens">
        {t
          ? `${(t.prompt + t.completion).toLocaleString()} (${t.prompt.toLocaleString()} prompt, ${t.completion.toLocaleString()} completion${t.reasoning ? `, ${t.reasoning.toLocaleString()} reasoning` : ''})`
          : 'none yet'}
      </dd>
      <dt>Cost</dt>
      <dd data-testid="job-cost">
        {formatUsd(view.costUsd ?? 0)}
        {view.limitUsd !== null ? ` of ${formatUsd(view.limitUsd)} job budget` : ''}
        {view.budgetExceeded ? ' — job budget exceeded' : ''} · <MonthLine budget={budget} />
      </dd>
    </>
  );
}

/** The person's month beside the job's own cost: what the next submission will be checked against. */
function MonthLine({ budget }: { budget: Budget | undefined }) {
  if (!budget) return <Link to="/budget">my monthly budget</Link>;
  return (
    <Link to="/budget">
      {budget.exempt
        ? `this month ${formatCents(budget.spentCents)}, no monthly cap`
        : `this month ${formatCents(budget.spentCents)} of ${formatCents(budget.budgetCents)}`}
    </Link>
  );
}
