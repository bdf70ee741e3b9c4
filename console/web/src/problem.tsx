import { Link, Navigate, useLocation } from 'react-router';
import * as z from 'zod/mini';
import { ApiError } from './api';
import { formatCents } from './time';
import { Budget } from './schemas';
import { useResource } from './use-resource';

/**
 * What a failed page load shows. The console's statuses carry one meaning each: 401 signs in again, 403 and 404 go
 * to their pages (with the address kept in `from` so a person can tell what was refused), anything else is said here.
 */
export function LoadProblem({ error }: { error: unknown }) {
  const location = useLocation();
  const from = location.pathname + location.search;
  if (error instanceof ApiError) {
    if (error.status === 401) return <Navigate to={`/login?next=${encodeURIComponent(from)}`} replace />;
    if (error.status === 403 && error.code !== 'over_budget') {
      // A missing role is not someone else's data: the forbidden page says which it is.
      const reason = error.code === 'admin_required' ? '&reason=admin_required' : '';
      return <Navigate to={`/forbidden?from=${encodeURIComponent(from)}${reason}`} replace />;
    }
    if (error.status === 404) return <Navigate to={`/not-found?from=${encodeURIComponent(from)}`} replace />;
  }
  return <ErrorNote error={error} />;
}

/** An inline refusal: the server's own message, and for 402 the month's budget. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof ApiError && error.status === 402) return <OverBudget error={error} />;
  const message =
    error instanceof ApiError
      ? error.status === 429
        ? tooMany(error)
        : error.message
      : error instanceof Error
        ? error.message
        : 'Something went wrong.';
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}

function tooMany(error: ApiError): string {
  const wait = error.retryAfterSeconds;
  const when = wait ? ` Try again in ${wait < 120 ? `${wait} seconds` : `${Math.ceil(wait / 60)} minutes`}.` : '';
  return `Too many attempts.${when}`;
}

/** The ingest API's 402 names the budget it reached (docs/budgets.md): the user's, the project's or the org's. */
const NamedBudget = z.looseObject({
  scope: z.enum(['user', 'project', 'org']),
  org_id: z.optional(z.string()),
  project_slug: z.optional(z.string()),
  budget_cents: z.number(),
  spent_cents: z.number(),
});

function OverBudget({ error }: { error: ApiError }) {
  const body = error.body as { budget?: unknown; error?: { budget?: unknown } } | null;
  const named = NamedBudget.safeParse(body?.error?.budget);
  const shared = named.success && named.data.scope !== 'user' ? named.data : null;
  const inBody = Budget.safeParse(body?.budget ?? body?.error?.budget);
  // The refusal may not carry the budget; then it is read from /api/me/budget, as the spec's 402 page shows it.
  const fetched = useResource(inBody.success || shared ? null : '/api/me/budget', Budget);
  if (shared) return <SharedBudgetSpent budget={shared} />;
  const budget = inBody.success ? inBody.data : fetched.data;
  return (
    <div className="error over-budget" role="alert">
      <p>
        <strong>Over budget.</strong> You have used this month&apos;s compute budget, so no new run can start. Running
        jobs continue. Ask an admin to raise your budget.
      </p>
      {budget ? (
        <p>
          Spent {formatCents(budget.spentCents)} of {formatCents(budget.budgetCents)} this month.
        </p>
      ) : null}
      <p>
        <Link to="/budget">See my budget</Link>
      </p>
    </div>
  );
}

/** A project's or an org's monthly budget is spent: not the person's own, so no link to their budget. */
function SharedBudgetSpent({ budget }: { budget: z.infer<typeof NamedBudget> }) {
  const whose =
    budget.scope === 'project' ? `The project ${budget.project_slug ?? ''}` : `Your org ${budget.org_id ?? ''}`;
  return (
    <div className="error over-budget" role="alert">
      <p>
        <strong>Over budget.</strong> {whose} has used this month&apos;s budget, so no new run can start in it. Running
        jobs continue. Ask an admin to raise it.
      </p>
      <p>
        Spent {formatCents(budget.spent_cents)} of {formatCents(budget.budget_cents)} this month; nothing left.
      </p>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}
