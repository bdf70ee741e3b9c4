// Shared by the Redis and in-process stores, so both implementations validate and answer identically.
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateDecision } from './queue-store';

export type Listener = (message: string) => void;

/** Where a limiter for one (points, duration) pair keeps its windows; the limiter appends `:<key>`. */
export function rateKeyPrefix(prefix: string, limitId: string): string {
  // The limit is part of the key so a key consumed under two different limits never shares one window's TTL.
  return `${prefix}rate:${limitId}`;
}

/** Consumes one point and turns rate-limiter-flexible's resolve/reject-with-RateLimiterRes into a RateDecision. */
export async function consumeOne(limiter: RateLimiterAbstract, key: string): Promise<RateDecision> {
  try {
    const res = await limiter.consume(key, 1);
    return { allowed: true, remaining: res.remainingPoints, retryAfterMs: 0 };
  } catch (err) {
    // Anything other than a RateLimiterRes is a store failure, which must not read as "refused".
    if (!(err instanceof RateLimiterRes)) throw err;
    // A refusal always has a window to wait out; never tell a client to retry "now".
    return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, err.msBeforeNext) };
  }
}

export function assertRateLimit(points: number, durationSeconds: number): void {
  // Redis windows are whole seconds (SET EX); a fractional or zero duration would silently mean something else.
  if (!Number.isSafeInteger(points) || points < 1) {
    throw new RangeError(`points must be a positive integer, got ${points}`);
  }
  if (!Number.isSafeInteger(durationSeconds) || durationSeconds < 1) {
    throw new RangeError(`durationSeconds must be a positive integer, got ${durationSeconds}`);
  }
}

export function assertTtl(ttlMs: number): void {
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new RangeError(`ttlMs must be a positive integer, got ${ttlMs}`);
}

/**
 * Runs one subscriber callback. A throwing callback must not starve the other subscribers of the message (nor,
 * for Redis, break the connection's reply parser), yet must not vanish either, so it is rethrown on its own tick.
 */
export function deliver(listener: Listener, message: string): void {
  try {
    listener(message);
  } catch (err) {
    setImmediate(() => {
      throw err;
    });
  }
}
