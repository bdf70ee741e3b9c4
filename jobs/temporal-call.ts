import { isGrpcServiceError, type Client } from '@temporalio/client';
import { UnavailableError } from '../http/errors';

/**
 * How long a request waits on Temporal before it answers 503. Without a deadline the client's own retries of an
 * unreachable server keep a submission waiting about 20 s.
 */
export const TEMPORAL_CALL_DEADLINE_MS = 2_000;

/** gRPC status codes that say the server was not reached or did not answer in time (UNAVAILABLE, DEADLINE_EXCEEDED). */
const UNREACHABLE_CODES = new Set([14, 4]);

/** True when `err` (or a cause of it) is Temporal's server being unreachable, not Temporal refusing the call. */
export function isTemporalUnavailable(err: unknown): boolean {
  for (let link: unknown = err, depth = 0; link && depth < 8; depth += 1) {
    if (isGrpcServiceError(link) && UNREACHABLE_CODES.has(link.code)) return true;
    link = (link as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs one Temporal client call under a deadline; an unreachable server becomes a 503 `queue_unavailable` naming
 * `what` (the request did nothing, so the client may retry it).
 */
export async function temporalCall<T>(
  temporal: Client,
  what: string,
  call: () => Promise<T>,
  deadlineMs = TEMPORAL_CALL_DEADLINE_MS,
): Promise<T> {
  try {
    return await temporal.withDeadline(Date.now() + deadlineMs, call);
  } catch (err) {
    if (isTemporalUnavailable(err)) {
      throw new UnavailableError('queue_unavailable', `the job queue (Temporal) is unreachable: ${what}; retry`);
    }
    throw err;
  }
}
