import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** An error with a place in the API's contract: its status and code reach the client as `{ error: { code, message } }`. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** What a domain refusal is, in the domain's words; the API answers each kind with its own status. */
export type RefusalKind = 'invalid' | 'not_found' | 'conflict';

const REFUSAL_STATUS: Record<RefusalKind, number> = { invalid: 400, not_found: 404, conflict: 409 };

/**
 * A refusal raised by domain code (e.g. an agent-graph edit that would not run). The domain names the kind; this file
 * alone decides the HTTP status it becomes.
 */
export class Refusal extends AppError {
  override name = 'Refusal';
  constructor(
    readonly kind: RefusalKind,
    code: string,
    message: string,
  ) {
    super(REFUSAL_STATUS[kind], code, message);
  }
}

export class NotFoundError extends AppError {
  override name = 'NotFoundError';
  constructor(what: string) {
    super(404, 'not_found', `${what} not found`);
  }
}

export class UnauthorizedError extends AppError {
  override name = 'UnauthorizedError';
  constructor(message: string) {
    super(401, 'unauthorized', message, { 'www-authenticate': 'Bearer' });
  }
}

export class RateLimitedError extends AppError {
  override name = 'RateLimitedError';
  constructor(scope: string, retryAfterMs: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super(429, 'rate_limited', `${scope} rate limit exceeded; retry in ${seconds} s`, {
      'retry-after': String(seconds),
    });
  }
}

export class ConflictError extends AppError {
  override name = 'ConflictError';
  constructor(code: string, message: string) {
    super(409, code, message);
  }
}

/** How long a client is told to wait before retrying a request a dependency outage refused. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

export class UnavailableError extends AppError {
  override name = 'UnavailableError';
  constructor(code: string, message: string) {
    super(503, code, message, { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) });
  }
}

/** Node's socket errors for a server that is gone or unreachable. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
/**
 * PostgreSQL's SQLSTATEs for a server that cannot serve: connection exceptions (class 08), shutdown and recovery
 * (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now), too many connections (53300).
 */
const DATABASE_UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;
/** What node-postgres throws without a SQLSTATE when the socket ends or the pool cannot connect in time. */
const DATABASE_UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
];

/**
 * True for an error that says PostgreSQL could not be reached or dropped the connection, as opposed to a query it
 * refused. Read by shape (code, message), so this layer needs no database driver.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  // By shape, not `instanceof Error`: socket errors come from Node's own realm, which a test sandbox does not share.
  if (typeof err !== 'object' || err === null) return false;
  const { code, message, errors, cause } = err as {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
    cause?: unknown;
  };
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || DATABASE_UNAVAILABLE_STATES.test(code))) {
    return true;
  }
  if (typeof message === 'string' && DATABASE_UNAVAILABLE_MESSAGES.some((m) => message.startsWith(m))) return true;
  // AggregateError from a connect to several addresses (localhost as ::1 and 127.0.0.1).
  if (Array.isArray(errors) && errors.some(isDatabaseUnavailable)) return true;
  return cause !== undefined && cause !== err && isDatabaseUnavailable(cause);
}

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

export interface ErrorBody {
  error: { code: string; message: string };
}

/**
 * PostgreSQL's data exceptions a request's values cause: text with NUL (22021), an unusable escape (22P05), a number out
 * of range for its column (22003), text that is not the column's type (22P02), a bad date (22007, 22008).
 */
const INPUT_DATA_EXCEPTIONS: Record<string, string> = {
  '22021': 'a value contains a character the database cannot store (e.g. NUL)',
  '22P05': 'a value contains an escape the database cannot store (e.g. \\u0000)',
  '22003': 'a number is out of range',
  '22P02': 'a value is not of the expected type',
  '22007': 'a date or time is not valid',
  '22008': 'a date or time is out of range',
};

/** The client-readable reason when `err` is a database refusal of a request's value, else undefined. */
export function inputDataException(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && Object.hasOwn(INPUT_DATA_EXCEPTIONS, code)
    ? INPUT_DATA_EXCEPTIONS[code]
    : undefined;
}

/** The one place errors become responses. 4xx messages are the client's to read; 5xx details stay in the log. */
export function handleError(err: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) {
    return reply
      .code(err.statusCode)
      .headers(err.headers)
      .send({ error: { code: err.code, message: err.message } });
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const message = err.validation
      .map(
        (issue) =>
          `${issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || err.validationContext}: ${issue.message}`,
      )
      .join('; ');
    return reply.code(400).send({ error: { code: 'invalid_request', message } });
  }
  // A backstop: values are checked at the door (http/nul-guard.ts, the route schemas); one that slips through and is
  // refused by the database is still the client's error, not a server fault.
  const dataException = inputDataException(err);
  if (dataException !== undefined) {
    request.log.warn({ err }, 'the database refused a value of the request');
    return reply.code(400).send({ error: { code: 'invalid_request', message: dataException } });
  }
  const fastifyCode = (err as FastifyError).code;
  if (fastifyCode === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyCode === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return reply.code(400).send({ error: { code: 'invalid_request', message: `body: ${err.message}` } });
  }
  const status = (err as FastifyError).statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const code = (fastifyCode ?? 'bad_request').replace(/^FST_ERR_(CTP_)?/, '').toLowerCase();
    return reply.code(status).send({ error: { code, message: err.message } });
  }
  if (isDatabaseUnavailable(err)) {
    request.log.warn({ err }, 'database unavailable');
    return reply
      .code(503)
      .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S))
      .send({ error: { code: 'database_unavailable', message: 'the database is unavailable; retry' } });
  }
  request.log.error({ err }, 'request failed');
  return reply.code(500).send({ error: { code: 'internal', message: 'internal error' } });
}
