import { Link, Navigate, useLocation } from 'react-router';
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
    if (error.status === 403 && error.code !== 'over_budget')
      return <Navigate to={`/forbidden?from=${encodeURIComponent(from)}`} replace />;
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

function OverBudget({ error }: { error: ApiError }) {
  const body = error.body as { budget?: unknown; error?: { budget?: unknown } } | null;
  const inBody = Budget.safeParse(body?.budget ?? body?.error?.budget);
  // The refusal may not carry the budget; then it is read from /api/me/budget, as the spec's 402 page shows it.
  const fetched = useResource(inBody.success ? null : '/api/me/budget', Budget);
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

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}
