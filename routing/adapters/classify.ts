import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { Wire } from '../catalog/types';
import { ProviderCallError } from './types';
import type { FailureKind } from './types';

/** What a vendor answered when a call failed. */
export interface HttpFailure {
  status: number;
  /** The response body: parsed JSON, or the raw text when it was not JSON. */
  body: unknown;
  headers?: Headers;
}

export interface CallContext {
  wire: Wire;
  providerName: string;
  model: string;
  signal?: AbortSignal;
}

/**
 * Turns what a vendor client threw into a ProviderCallError. Returns the error unchanged when the caller's
 * signal aborted the call (the caller recognises its own cancellation) or when it is not a vendor failure at
 * all (a programming error must surface, not be walked past as an unavailable provider).
 */
export function classifyThrown(err: unknown, context: CallContext): unknown {
  if (context.signal?.aborted) return err;
  const failure = readHttpFailure(context.wire, err);
  if (failure) return classifyHttpFailure(context.wire, failure, `${context.providerName}/${context.model}`);
  if (isTransportFailure(err)) {
    const reason = err instanceof Error ? err.message : String(err);
    return new ProviderCallError(`${context.providerName}/${context.model} unreachable: ${reason}`, 'unavailable');
  }
  return err;
}

/** Classifies a vendor's HTTP failure from its status AND its body, because vendors report one condition differently. */
export function classifyHttpFailure(wire: Wire, failure: HttpFailure, label: string): ProviderCallError {
  const { status, body } = failure;
  const kind = kindOf(wire, status, body);
  const detail = vendorMessage(body);
  return new ProviderCallError(
    `${label} failed (HTTP ${status}, ${kind})${detail ? `: ${detail}` : ''}`,
    kind,
    status,
    retryAfterMs(failure),
  );
}

function kindOf(wire: Wire, status: number, body: unknown): FailureKind {
  // Before the status rules: OpenAI says "unfunded" with a 429 and Anthropic with a 400.
  if (status === 402 || isUnfunded(wire, body)) return 'unfunded';
  if (status === 401 || status === 403 || isRefusedCredential(wire, body)) return 'auth';
  if (status === 429) return 'rate_limited';
  // 408 and 409 are the vendor's transient conflicts (OpenAI's own client retries both), not a bad request.
  if (status === 408 || status === 409 || status >= 500) return 'unavailable';
  if (status >= 400) return 'bad_request';
  return 'unavailable';
}

// OpenAI error codes for an account with no usable credit.
const OPENAI_UNFUNDED_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached', 'billing_not_active']);

// Anthropic `error.details.error_code`s for an organisation that has hit its spend limit (sent as 429s).
const ANTHROPIC_UNFUNDED_CODES = new Set(['contract_spend_limit_reached', 'enforced_spend_limit_reached']);

function isUnfunded(wire: Wire, body: unknown): boolean {
  const error = errorObject(body);
  if (!error) return false;
  switch (wire) {
    case 'chat_compat':
      return OPENAI_UNFUNDED_CODES.has(String(error.code)) || OPENAI_UNFUNDED_CODES.has(String(error.type));
    case 'vendor_a':
      return (
        error.type === 'billing_error' ||
        /credit balance is too low/i.test(String(error.message)) ||
        ANTHROPIC_UNFUNDED_CODES.has(String(record(error.details)?.error_code))
      );
    case 'vendor_b':
      return (
        (error.status === 'RESOURCE_EXHAUSTED' && hasZeroQuota(error)) ||
        // "Gemini API free tier is not available in your country. Please enable billing on your project ..."
        (error.status === 'FAILED_PRECONDITION' && /billing/i.test(String(error.message)))
      );
  }
}

/**
 * A Gemini quota error whose limit is zero means the project has no free tier for the model and no billing:
 * waiting never helps. The limit is in the message (`limit: 0`) or in a QuotaFailure violation's `quotaValue`.
 */
function hasZeroQuota(error: Record<string, unknown>): boolean {
  if (/\blimit:\s*0(?![\d.])/.test(String(error.message))) return true;
  return googleDetails(error, 'QuotaFailure').some((detail) =>
    array(detail.violations).some((violation) => String(record(violation)?.quotaValue) === '0'),
  );
}

function isRefusedCredential(wire: Wire, body: unknown): boolean {
  if (wire !== 'vendor_b') return false;
  const error = errorObject(body);
  // Google refuses a bad API key with HTTP 400 INVALID_ARGUMENT; only ErrorInfo says it is the key.
  return (
    error !== undefined &&
    googleDetails(error, 'ErrorInfo').some((detail) => String(detail.reason).startsWith('API_KEY_'))
  );
}

function googleDetails(error: Record<string, unknown>, type: string): Array<Record<string, unknown>> {
  return array(error.details)
    .map(record)
    .filter(
      (detail): detail is Record<string, unknown> => detail?.['@type'] === `type.googleapis.com/google.rpc.${type}`,
    );
}

/** Milliseconds to wait: OpenAI's `retry-after-ms`, the standard `Retry-After`, or Google's RetryInfo in the body. */
function retryAfterMs(failure: HttpFailure): number | undefined {
  const ms = Number(failure.headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const header = failure.headers?.get('retry-after');
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  const error = errorObject(failure.body);
  const delay = error && googleDetails(error, 'RetryInfo')[0]?.retryDelay;
  const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay) : null;
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

function readHttpFailure(wire: Wire, err: unknown): HttpFailure | undefined {
  switch (wire) {
    case 'chat_compat':
      // The client keeps only the body's `error` member; the envelope is rebuilt so every wire reads the same way.
      if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
        const error: unknown = err.error;
        return {
          status: err.status,
          body: error === undefined ? err.message : { error },
          headers: err.headers as Headers | undefined,
        };
      }
      return undefined;
    case 'vendor_a':
      if (err instanceof Anthropic.APIError && typeof err.status === 'number') {
        const body: unknown = err.error;
        return { status: err.status, body: body ?? err.message, headers: err.headers as Headers | undefined };
      }
      return undefined;
    case 'vendor_b':
      return readGoogleApiError(err);
  }
}

/**
 * @google/genai's ApiError carries the status and the response body JSON-stringified as its message (the
 * response headers are dropped; Google sends its retry hint in the body). It is recognised by shape because
 * that package is loaded lazily as an ES module, so its class is not at hand for a synchronous `instanceof`.
 */
function readGoogleApiError(err: unknown): HttpFailure | undefined {
  if (!(err instanceof Error) || err.name !== 'ApiError') return undefined;
  const status = (err as Error & { status?: unknown }).status;
  if (typeof status !== 'number') return undefined;
  try {
    return { status, body: JSON.parse(err.message) as unknown };
  } catch {
    return { status, body: err.message };
  }
}

// Node's network error codes that mean the vendor could not be reached or dropped the connection.
const NETWORK_CODES =
  /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|UND_ERR_)/;

function isTransportFailure(err: unknown): boolean {
  if (err instanceof OpenAI.APIConnectionError || err instanceof Anthropic.APIConnectionError) return true;
  // Read by shape, not `instanceof`: fetch's errors may come from another realm (a vm context under Jest),
  // and clients wrap them, so the cause chain is walked too (bounded: some chains loop back on themselves).
  let current: unknown = err;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const { name, code, message, cause } = current as {
      name?: unknown;
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    // With the caller's signal not aborted, an abort is the client's own timeout.
    if (name === 'AbortError' || name === 'TimeoutError') return true;
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return true;
    // undici's fetch reports every network failure as this TypeError.
    if (name === 'TypeError' && message === 'fetch failed') return true;
    // ... and a connection lost while a (streamed) body is being read as this one.
    if (name === 'TypeError' && message === 'terminated') return true;
    current = cause;
  }
  return false;
}

function vendorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.slice(0, 500) || undefined;
  const message = errorObject(body)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** The `error` object all three wires wrap their failures in. */
function errorObject(body: unknown): Record<string, unknown> | undefined {
  return record(record(body)?.error);
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}
