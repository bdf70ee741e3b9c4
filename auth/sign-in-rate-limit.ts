import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** Password sign-in attempts allowed per IP per window (spec: 10 per 15 minutes). */
export const SIGN_IN_ATTEMPTS = 10;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

export type LimitDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

export interface SignInLimiter {
  /** Spends one attempt of this IP's window; every attempt counts, successful or not. */
  consume(ip: string): Promise<LimitDecision>;
}

/**
 * A fixed 15-minute window per IP, in Redis when configured (so every replica shares it), else in this
 * process's memory.
 */
export function createSignInLimiter(options: { redis?: Redis; keyPrefix: string }): SignInLimiter {
  const settings = { keyPrefix: options.keyPrefix, points: SIGN_IN_ATTEMPTS, duration: SIGN_IN_WINDOW_SECONDS };
  const limiter = options.redis
    ? // While Redis is unreachable each replica keeps its own window rather than failing sign-in with a 5xx.
      new RateLimiterRedis({
        ...settings,
        storeClient: options.redis,
        insuranceLimiter: new RateLimiterMemory(settings),
      })
    : new RateLimiterMemory(settings);
  return {
    async consume(ip) {
      try {
        await limiter.consume(ip);
        return { allowed: true };
      } catch (err) {
        // rate-limiter-flexible rejects with a RateLimiterRes when the window is spent, with an Error otherwise.
        if (err instanceof RateLimiterRes) return { allowed: false, retryAfterMs: err.msBeforeNext };
        throw err;
      }
    },
  };
}
