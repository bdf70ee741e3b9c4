import { LoadProblem, Loading } from '../problem';
import { Budget } from '../schemas';
import { formatCents } from '../time';
import { Time } from '../time-tag';
import { useResource } from '../use-resource';
import { SpendBreakdown } from './budget-spend';
import { OrgBudgets } from './budget-tenants';

export function BudgetPage() {
  const budget = useResource('/api/me/budget', Budget);
  return (
    <section>
      <h1>My budget</h1>
      {budget.error ? <LoadProblem error={budget.error} /> : null}
      {budget.loading ? <Loading what="your budget" /> : null}
      {budget.data ? <BudgetView budget={budget.data} /> : null}
      <OrgBudgets />
      {budget.data ? <SpendBreakdown since={budget.data.periodStart} /> : null}
    </section>
  );
}

function BudgetView({ budget }: { budget: Budget }) {
  if (budget.exempt) {
    return (
      <p>
        As an admin you have no monthly cap. Spent this month: {formatCents(budget.spentCents)} (since{' '}
        <Time iso={budget.periodStart} />
        ).
      </p>
    );
  }
  const cap = budget.budgetCents ?? 0;
  return (
    <div className="budget">
      <p>
        Spent <strong>{formatCents(budget.spentCents)}</strong> of <strong>{formatCents(budget.budgetCents)}</strong>{' '}
        this month (since <Time iso={budget.periodStart} />
        ); {formatCents(budget.remainingCents)} left.
      </p>
      <meter
        min={0}
        max={Math.max(cap, 1)}
        value={Math.min(budget.spentCents, Math.max(cap, 1))}
        aria-label="Share of this month's budget spent"
      />
      {budget.overBudget ? (
        <p className="error" role="alert">
          You are over budget: new runs are refused until next month or until an admin raises your budget. Running jobs
          pause before their next model call until it is raised (then answer &ldquo;retry&rdquo;) or you stop them.
        </p>
      ) : (
        <p>
          The cap is checked when a run is submitted and before each model call of your running jobs: a call that would
          pass it pauses the job for your decision.
        </p>
      )}
    </div>
  );
}
