import type { Clock } from './clock';

/** An upstream answered with an error the connector does not retry; the run fails and the cursor stays put. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface RetryOptions {
  clock: Clock;
  signal?: AbortSignal;
  /** 429s retried before giving up. */
  maxRetries?: number;
  /** Used when a 429 carries no usable Retry-After (ms). */
  fallbackDelayMs?: number;
  /** Called before each attempt (the rate limiter's acquire). */
  beforeAttempt?: () => Promise<void>;
}

/** Retry-After in seconds (both APIs send seconds); an HTTP date is honoured too. */
export function retryAfterMs(header: string | null, now: number, fallbackMs: number): number {
  if (header === null) return fallbackMs;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? fallbackMs : Math.max(0, date - now);
}

/**
 * fetch that waits and retries on 429, honouring Retry-After; any other non-2xx is returned to the caller, which
 * knows its API's error shape.
 */
export async function fetchRetrying(url: string, init: RequestInit, options: RetryOptions): Promise<Response> {
  const maxRetries = options.maxRetries ?? 5;
  for (let attempt = 0; ; attempt += 1) {
    await options.beforeAttempt?.();
    const response = await fetch(url, { ...init, signal: options.signal ?? null });
    if (response.status !== 429 || attempt >= maxRetries) return response;
    const wait = retryAfterMs(
      response.headers.get('retry-after'),
      options.clock.now(),
      options.fallbackDelayMs ?? 1000,
    );
    await response.body?.cancel();
    await options.clock.sleep(wait, options.signal);
  }
}
