/**
 * What Keel keeps in Redis: short-lived, shared state. Every key is namespaced by the store's prefix
 * (`keel:<instance id>:` in production), so several Keel instances can share one Redis.
 * Two implementations honour this contract: Redis (REDIS_URL set) and in-process (REDIS_URL unset).
 *
 * Rate windows are fixed windows: the first point spent on a key opens a window of `durationSeconds`, and every
 * point spent on it until the window ends counts against `points`. A window is identified by its key and its limit
 * (`points`, `durationSeconds`): the same key read or spent under another limit is another window.
 */
export interface QueueStore {
  /**
   * Spends `cost` points (default 1) of the window `key` that allows `points` per `durationSeconds`, or none of
   * them: a consume that would take the window past `points` is refused and leaves the window exactly as it was
   * (it neither counts nor opens a window), so a smaller consume that still fits is allowed afterwards.
   * Shared across API and worker replicas when backed by Redis.
   */
  consume(key: string, points: number, durationSeconds: number, cost?: number): Promise<RateDecision>;
  /**
   * Gives `amount` points back to the window `key` (e.g. a reservation that was not needed). Never takes the
   * window below zero, and never opens a window: points of a window that has already ended are gone with it.
   */
  refund(key: string, points: number, durationSeconds: number, amount: number): Promise<void>;
  /**
   * Spends `amount` points unconditionally, past `points` if need be: for usage that has already happened
   * (tokens a provider reports after the fact), which a refusal could not undo. Opens a window if none is open.
   */
  charge(key: string, points: number, durationSeconds: number, amount: number): Promise<void>;
  /**
   * Several `consume`s and flag checks as one atomic step (one round trip in Redis): when a flag of `unlessFlags` is
   * set, answers the first such flag and spends nothing; otherwise spends `cost` of every window in `windows`, or
   * none of them when one would be taken past its limit (answering the first such window, in the given order, and
   * leaving every window exactly as it was). A window keeps the meaning it has for `consume`. With no windows it
   * only checks the flags. Two entries for the same window are refused as a caller error.
   */
  consumeAll(request: { unlessFlags?: readonly string[]; windows: readonly WindowSpend[] }): Promise<BatchDecision>;
  /** Reads the window `key` without spending; a key with no open window reads `used: 0, resetMs: 0`. */
  peek(key: string, points: number, durationSeconds: number): Promise<RateWindow>;
  /** Sets a flag that disappears after `ttlMs` (e.g. a job's cancel flag). */
  setFlag(key: string, ttlMs: number): Promise<void>;
  hasFlag(key: string): Promise<boolean>;
  /** True for the first caller of `key` within `ttlMs`, false for every repeat (delivery de-duplication). */
  claimOnce(key: string, ttlMs: number): Promise<boolean>;
  /** Atomically increments and returns the counter `key` (1 on first use); never expires. */
  incrementCounter(key: string): Promise<number>;
  /**
   * Stores `value` under `id` in the record collection `collection`, replacing what was there; never expires. For the
   * development mode without a database, where the queue store holds workflows (so it is not built for volume).
   */
  putRecord(collection: string, id: string, value: string): Promise<void>;
  getRecord(collection: string, id: string): Promise<string | undefined>;
  /** Every record of the collection, in no particular order. */
  listRecords(collection: string): Promise<string[]>;
  /**
   * Appends `entries` to the list `field` of the group `group` and, in the same atomic step, publishes `publish` (so a
   * reader that subscribes to that channel before reading the group misses nothing); `reset` empties the list first.
   * A list keeps only its newest entries within `maxBytes` (the oldest go first); the group and its lists expire
   * `ttlMs` after their last append. For short-lived buffers such as a model call's partial output.
   */
  appendBounded(
    group: string,
    field: string,
    entries: readonly string[],
    options: { maxBytes: number; ttlMs: number; reset?: boolean; publish?: { channel: string; message: string } },
  ): Promise<void>;
  /** Removes the list `field` of `group`, then publishes `publish` when given, in one step. */
  dropBounded(group: string, field: string, publish?: { channel: string; message: string }): Promise<void>;
  /** Every list of the group, each oldest entry first, in no particular order of lists. */
  readBounded(group: string): Promise<string[][]>;
  /** Publishes to a live channel; subscribers that are not connected miss it (the database is the backlog). */
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is live; the returned function unsubscribes. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface RateDecision {
  allowed: boolean;
  /** Points still available in the window after this decision (a refused consume spent none of them). */
  remaining: number;
  /** Milliseconds until the window resets; 0 when allowed. */
  retryAfterMs: number;
  /** Milliseconds until the window this decision was counted in ends, allowed or not (0: no window is open). */
  resetMs: number;
}

/** One window a `consumeAll` spends from: `cost` points of the window `key` that allows `points` per `durationSeconds`. */
export interface WindowSpend {
  key: string;
  points: number;
  durationSeconds: number;
  cost: number;
}

export type BatchDecision =
  /** A flag of `unlessFlags` is set (the first one set, in the given order); nothing was spent. */
  | { outcome: 'flagged'; flag: string }
  /** `windows[index]` refused as `consume` would have; nothing was spent in any window. */
  | { outcome: 'refused'; index: number; decision: RateDecision }
  /** Every window was spent; one decision per window, in the given order. */
  | { outcome: 'allowed'; decisions: RateDecision[] };

export interface RateWindow {
  /** Points spent in the open window; above `limit` only after `charge`. */
  used: number;
  limit: number;
  /** Milliseconds until the open window ends; 0 when no window is open. */
  resetMs: number;
}
