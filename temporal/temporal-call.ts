import { isGrpcServiceError, WorkflowUpdateRPCTimeoutOrCancelledError, type Client } from '@temporalio/client';
import { Unavailable } from '../refusals/refusal';
import { channelRefusing, whenChannelRefuses } from './channel-state';

/**
 * How long a request may wait on an unreachable Temporal before it has its 503 (TEMPORAL_DOWN_ANSWER_MS). Without a
 * bound the client's own retries of an unreachable server kept a submission waiting about 20 s.
 */
export const TEMPORAL_DOWN_ANSWER_MS = 2_000;

/**
 * The gRPC deadline is this share of the answer budget: the client's retry interceptor sleeps its backoff past a
 * deadline before it notices it (a 2 s deadline answered in 2.1–3.4 s), so the call is also raced against a timer.
 */
const CALL_DEADLINE_SHARE = 0.75;
/** What the hard bound leaves of the budget for the 503 itself to be written. */
const ANSWER_MARGIN_MS = 100;

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

/** The Temporal client a request calls through, and its answer budget while Temporal is unreachable. */
export interface TemporalCaller {
  temporal: Client;
  /** TEMPORAL_DOWN_ANSWER_MS; default 2 s. */
  temporalAnswerMs?: number;
}

export interface TemporalCallOptions {
  /**
   * How long a reachable Temporal may take (an update that waits for the workflow to accept it); default: the share of
   * the answer budget above. An unreachable one is still refused as soon as the channel says so.
   */
  waitMs?: number;
}

/**
 * Runs one Temporal client call; an unreachable server becomes a 503 `queue_unavailable` naming `what` (the request did
 * nothing, so the client may retry it). Refused at once while the client's channel is failing to connect (a refused
 * or reset connection), refused as soon as it starts failing during the call, and otherwise bounded by the answer budget.
 */
export async function temporalCall<T>(
  { temporal, temporalAnswerMs: answerMs = TEMPORAL_DOWN_ANSWER_MS }: TemporalCaller,
  what: string,
  call: () => Promise<T>,
  { waitMs }: TemporalCallOptions = {},
): Promise<T> {
  const unavailable = () =>
    new Unavailable('queue_unavailable', `the job queue (Temporal) is unreachable: ${what}; retry`);
  if (channelRefusing(temporal)) throw unavailable();
  const abort = new AbortController();
  const deadlineMs = waitMs ?? Math.round(answerMs * CALL_DEADLINE_SHARE);
  let timer: NodeJS.Timeout | undefined;
  const refused = new Promise<never>((_resolve, reject) => {
    whenChannelRefuses(temporal, abort.signal, () => reject(unavailable()));
    if (waitMs === undefined) timer = setTimeout(() => reject(unavailable()), answerMs - ANSWER_MARGIN_MS);
  });
  try {
    return await Promise.race([
      temporal.withAbortSignal(abort.signal, () => temporal.withDeadline(Date.now() + deadlineMs, call)),
      refused,
    ]);
  } catch (err) {
    // A reachable Temporal whose workflow did not take an update within `waitMs` is the caller's to report.
    if (waitMs !== undefined && err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) throw err;
    if (isTemporalUnavailable(err)) throw unavailable();
    throw err;
  } finally {
    clearTimeout(timer);
    // Stops the channel watch, and the client's retries of a call that was answered 503 already.
    abort.abort();
  }
}
