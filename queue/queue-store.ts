/**
 * What Keel keeps in Redis: short-lived, shared state. Every key is namespaced by the store's prefix
 * (`keel:<instance id>:` in production), so several Keel instances can share one Redis.
 * Two implementations honour this contract: Redis (REDIS_URL set) and in-process (REDIS_URL unset).
 */
export interface QueueStore {
  /**
   * Takes one point from the fixed window `key` that allows `points` per `durationSeconds`.
   * Shared across API replicas when backed by Redis.
   */
  consume(key: string, points: number, durationSeconds: number): Promise<RateDecision>;
  /** Sets a flag that disappears after `ttlMs` (e.g. a job's cancel flag). */
  setFlag(key: string, ttlMs: number): Promise<void>;
  hasFlag(key: string): Promise<boolean>;
  /** True for the first caller of `key` within `ttlMs`, false for every repeat (delivery de-duplication). */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  /** Atomically increments and returns the counter `key` (1 on first use); never expires. */
  incrementCounter(key: string): Promise<number>;
  /** Publishes to a live channel; subscribers that are not connected miss it (the database is the backlog). */
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is live; the returned function unsubscribes. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Milliseconds until the window resets; 0 when allowed. */
  retryAfterMs: number;
}
