// Shared by the Redis and in-process stores, so both implementations validate and answer identically.
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateDecision, RateWindow, WindowSpend } from './queue-store';

export type Listener = (message: string) => void;

/** Where a limiter for one (points, duration) pair keeps its windows; the limiter appends `:<key>`. */
export function rateKeyPrefix(prefix: string, limitId: string): string {
  // The limit is part of the key so a key consumed under two different limits never shares one window's TTL.
  return `${prefix}rate:${limitId}`;
}

/**
 * Turns the outcome of rate-limiter-flexible's `consume(key, cost)` (resolve, or reject with a RateLimiterRes)
 * into a RateDecision. The limiter must refuse without spending (see each store), so on a refusal the window
 * still holds what it held before: `consumedPoints - cost`.
 */
export async function decide(
  consumed: Promise<RateLimiterRes>,
  points: number,
  durationSeconds: number,
  cost: number,
): Promise<RateDecision> {
  try {
    const res = await consumed;
    return { allowed: true, remaining: res.remainingPoints, retryAfterMs: 0, resetMs: Math.max(0, res.msBeforeNext) };
  } catch (err) {
    // Anything other than a RateLimiterRes is a store failure, which must not read as "refused".
    if (!(err instanceof RateLimiterRes)) throw err;
    return refusal(points, durationSeconds, err.consumedPoints - cost, err.msBeforeNext);
  }
}

/** A refused consume of a window holding `used` points whose window ends in `msBeforeNext` (<= 0: none open). */
export function refusal(points: number, durationSeconds: number, used: number, msBeforeNext: number): RateDecision {
  const open = msBeforeNext > 0;
  return {
    allowed: false,
    remaining: Math.max(0, points - used),
    // A refusal always has a window to wait out; never tell a client to retry "now". A cost that does not fit
    // even an empty window is told to wait one whole window, the soonest anything about it could change.
    retryAfterMs: open ? msBeforeNext : durationSeconds * 1000,
    resetMs: open ? msBeforeNext : 0,
  };
}

/** What `peek` reports for the result of rate-limiter-flexible's `get` (null, or an ended window: none open). */
export function windowOf(res: RateLimiterRes | null, points: number): RateWindow {
  if (!res || res.msBeforeNext <= 0) return { used: 0, limit: points, resetMs: 0 };
  return { used: Math.max(0, res.consumedPoints), limit: points, resetMs: res.msBeforeNext };
}

/** A consume's `cost` (at least 1: reading without spending is `peek`). */
export function assertCost(cost: number): void {
  if (!Number.isSafeInteger(cost) || cost < 1) throw new RangeError(`cost must be a positive integer, got ${cost}`);
}

/** A refund's or charge's `amount`; 0 is allowed and changes nothing, so callers need not special-case it. */
export function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new RangeError(`amount must be a non-negative integer, got ${amount}`);
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

/**
 * A `consumeAll`'s windows: each a valid consume, and no window twice (both entries would be checked against the
 * same count, so together they could overshoot the limit each fits alone).
 */
export function assertWindowSpends(windows: readonly WindowSpend[]): void {
  const seen = new Set<string>();
  for (const { key, points, durationSeconds, cost } of windows) {
    assertRateLimit(points, durationSeconds);
    assertCost(cost);
    const id = `${points}:${durationSeconds}:${key}`;
    if (seen.has(id)) throw new RangeError(`window ${key} (${points} per ${durationSeconds} s) is listed twice`);
    seen.add(id);
  }
}

/** What a consume that was allowed reports, for a window now holding `used` points and ending in `resetMs`. */
export function allowance(points: number, used: number, resetMs: number): RateDecision {
  return { allowed: true, remaining: Math.max(0, points - used), retryAfterMs: 0, resetMs: Math.max(0, resetMs) };
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
