import type { Redis } from 'ioredis';

/** The part of a pino logger this needs, so callers pass whichever logger their process writes with. */
export interface RedisErrorLog {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * How often the same Redis error is logged again while it lasts. ioredis reconnects every second or so and reports
 * each failed attempt: a minute-long outage would otherwise be sixty lines saying the same thing.
 */
export const REDIS_ERROR_REPEAT_MS = 60_000;

/**
 * Sends a Redis client's `error` events to the process's structured log. Without a listener ioredis prints
 * `[ioredis] Unhandled error event` with a stack on stderr for every failed reconnect, outside the log. The first
 * error of an outage is logged at `warn`, a different one at once, the same one again at most every `repeatMs` with
 * how many were folded into it; the first `ready` after errors logs the recovery at `info`. Commands still fail as
 * they would: this only decides what the log says.
 */
export function logRedisErrors(
  client: Redis,
  log: RedisErrorLog,
  what: string,
  repeatMs = REDIS_ERROR_REPEAT_MS,
): void {
  let outage: { message: string; loggedAt: number; folded: number; total: number } | undefined;
  client.on('error', (err: Error & { code?: string }) => {
    const now = Date.now();
    if (outage && outage.message === err.message && now - outage.loggedAt < repeatMs) {
      outage.folded += 1;
      outage.total += 1;
      return;
    }
    const fields: Record<string, unknown> = { redis: what, err: { message: err.message, code: err.code } };
    if (outage?.folded) fields.repeated = outage.folded;
    log.warn(fields, `Redis (${what}) unavailable: ${err.message}`);
    outage = { message: err.message, loggedAt: now, folded: 0, total: (outage?.total ?? 0) + 1 };
  });
  client.on('ready', () => {
    if (!outage) return;
    log.info({ redis: what, errors: outage.total }, `Redis (${what}) reachable again`);
    outage = undefined;
  });
}
