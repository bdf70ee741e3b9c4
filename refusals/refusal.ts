/**
 * Refusals in the application's and the domain's own words: what `jobs/`, `kb/`, `scenarios/` and the Temporal call
 * plumbing raise when a request cannot be served. They carry no HTTP: the edges map each kind to their own answer in
 * one place (`http/errors.ts` for the three HTTP services; the team-chat inbound reads the same kinds), so the worker
 * and the CLI that share this code carry no status codes.
 */
export type RefusalKind =
  /** The request itself is wrong (400). */
  | 'invalid'
  /** What it names does not exist, or not for this caller (404). */
  | 'not_found'
  /** It clashes with the state of what it names (409). */
  | 'conflict'
  /** The caller may not do this (403). */
  | 'forbidden'
  /** The caller's budget is spent (402). */
  | 'over_budget'
  /** The caller has asked too often; retry after `retryAfterS` (429). */
  | 'rate_limited'
  /** A dependency cannot serve now; retry, after `retryAfterS` when it is set (503). */
  | 'unavailable';

export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    readonly kind: RefusalKind,
    /** The stable machine-readable code clients switch on (`job_not_paused`, `over_budget`). */
    readonly code: string,
    message: string,
    /** For `rate_limited` and `unavailable`: how long the caller should wait before it retries. */
    readonly retryAfterS?: number,
    /** Fields the error body carries beside `code` and `message` (a 402's `budget`). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** How long a caller is told to wait before retrying what a dependency outage refused. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

export class NotFound extends Refusal {
  override name = 'NotFound';
  constructor(what: string) {
    super('not_found', 'not_found', `${what} not found`);
  }
}

export class Invalid extends Refusal {
  override name = 'Invalid';
  constructor(code: string, message: string) {
    super('invalid', code, message);
  }
}

export class Conflict extends Refusal {
  override name = 'Conflict';
  constructor(code: string, message: string) {
    super('conflict', code, message);
  }
}

export class Forbidden extends Refusal {
  override name = 'Forbidden';
  constructor(code: string, message: string) {
    super('forbidden', code, message);
  }
}

/** A dependency (Temporal, the database, the identity service) cannot serve now: retry after a few seconds. */
export class Unavailable extends Refusal {
  override name = 'Unavailable';
  constructor(code: string, message: string) {
    super('unavailable', code, message, UNAVAILABLE_RETRY_AFTER_S);
  }
}

export class RateLimited extends Refusal {
  override name = 'RateLimited';
  constructor(scope: string, retryAfterMs: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super('rate_limited', 'rate_limited', `${scope} rate limit exceeded; retry in ${seconds} s`, seconds);
  }
}

/** Which monthly budget a refusal names (docs/budgets.md): the submitter's, the job's project's or its org's. */
export type BudgetScope = 'user' | 'project' | 'org';

/** A monthly budget at the moment of a refusal, as the 402 body's `error.budget` carries it. */
export interface ExhaustedBudget {
  scope: BudgetScope;
  /** The user, for a user's budget. */
  user_id?: string;
  /** The org, for an org's or a project's budget. */
  org_id?: string;
  /** The project, for a project's budget. */
  project_slug?: string;
  budget_cents: number;
  spent_cents: number;
  /** What is left of the budget this month: 0 once spend has reached it. */
  remaining_cents: number;
  /** First instant (UTC) of the month the spend is summed over. */
  period_start: string;
}

export class OverBudget extends Refusal {
  override name = 'OverBudget';
  constructor(readonly budget: ExhaustedBudget) {
    super('over_budget', 'over_budget', overBudgetMessage(budget), undefined, { budget });
  }
}

function overBudgetMessage(budget: ExhaustedBudget): string {
  const spent = `month-to-date spend ${formatUsd(budget.spent_cents)}`;
  const left = `${formatUsd(budget.remaining_cents)} left`;
  switch (budget.scope) {
    case 'user':
      return `${spent} has reached the monthly budget ${formatUsd(budget.budget_cents)} (${left})`;
    case 'project':
      return `project ${budget.project_slug} of org ${budget.org_id}: ${spent} has reached its monthly budget ${formatUsd(budget.budget_cents)} (${left})`;
    case 'org':
      return `org ${budget.org_id}: ${spent} has reached its monthly budget ${formatUsd(budget.budget_cents)} (${left})`;
  }
}

function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
