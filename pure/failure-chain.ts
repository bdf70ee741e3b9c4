/** One link of a Temporal failure chain (child workflow → activity → cause), as far as workflow code reads it. */
export interface FailureLink {
  type?: string;
  message?: string;
  nonRetryable?: boolean;
  details?: unknown;
  cause?: unknown;
}

/** The failure and each of its causes, outermost first. */
export function* failureChain(err: unknown): Generator<FailureLink> {
  for (let current = err as FailureLink | undefined; current; current = current.cause as FailureLink | undefined) {
    yield current;
  }
}
