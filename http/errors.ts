import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { inputDataException } from '../db/data-exceptions';
import { Refusal, UNAVAILABLE_RETRY_AFTER_S, type RefusalKind } from '../refusals/refusal';

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

export class UnauthorizedError extends AppError {
  override name = 'UnauthorizedError';
  constructor(message: string) {
    super(401, 'unauthorized', message, { 'www-authenticate': 'Bearer' });
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
 * (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now), too many connections (53300), and a statement
 * the server cancelled (57014: its statement_timeout, db/pool.ts), which a server too loaded to answer in time gives.
 */
const DATABASE_UNAVAILABLE_STATES = /^(08...|57P0[123]|57014|53300)$/;
/** What node-postgres throws without a SQLSTATE when the socket ends or the pool cannot connect in time. */
const DATABASE_UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  // The pool's query_timeout: a server that stopped answering without closing the connection (db/pool.ts).
  'Query read timeout',
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

export interface ErrorBody {
  error: { code: string; message: string };
}

/** The HTTP status of each kind of refusal (refusals/refusal.ts): the one place the domain's words become HTTP. */
const REFUSAL_STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  over_budget: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
};

/** How an error with a place in the contract is answered: an AppError as it says, a refusal by its kind. */
export interface HttpAnswer {
  status: number;
  code: string;
  message: string;
  headers: Record<string, string>;
  /** Fields the error body carries beside code and message (a 402's `budget`). */
  details?: Record<string, unknown>;
}

/** The answer to `err` when it is an AppError or a refusal; undefined for anything else (a fault, a 5xx). */
export function httpAnswer(err: unknown): HttpAnswer | undefined {
  if (err instanceof AppError) {
    return { status: err.statusCode, code: err.code, message: err.message, headers: err.headers };
  }
  if (err instanceof Refusal) {
    const headers: Record<string, string> =
      err.retryAfterS === undefined ? {} : { 'retry-after': String(err.retryAfterS) };
    return { status: REFUSAL_STATUS[err.kind], code: err.code, message: err.message, headers, details: err.details };
  }
  return undefined;
}

/** The one place errors become responses. 4xx messages are the client's to read; 5xx details stay in the log. */
export function handleError(err: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const answer = httpAnswer(err);
  if (answer) {
    return reply
      .code(answer.status)
      .headers(answer.headers)
      .send({ error: { ...answer.details, code: answer.code, message: answer.message } });
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
