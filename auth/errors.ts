import { AppError } from '../api/errors';

// The identity service shares the ingest API's AppError family and error handler, so both answer
// `{ error: { code, message } }`; these are the identity-specific members.

/** No valid session: no cookie, a bad signature, an expired or revoked session, or a banned user. */
export class UnauthenticatedError extends AppError {
  override name = 'UnauthenticatedError';
  constructor(message = 'no valid session: sign in') {
    super(401, 'unauthenticated', message);
  }
}

export class ForbiddenError extends AppError {
  override name = 'ForbiddenError';
  constructor(code: string, message: string) {
    super(403, code, message);
  }
}

export class OverBudgetError extends AppError {
  override name = 'OverBudgetError';
  constructor(spentCents: number, budgetCents: number) {
    super(
      402,
      'over_budget',
      `month-to-date spend ${formatUsd(spentCents)} has reached the monthly budget ${formatUsd(budgetCents)}`,
    );
  }
}

export class BadRequestError extends AppError {
  override name = 'BadRequestError';
  constructor(code: string, message: string) {
    super(400, code, message);
  }
}

function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
