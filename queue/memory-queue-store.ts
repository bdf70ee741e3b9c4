import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { QueueStore } from './queue-store';
import {
  allowance,
  assertAmount,
  assertCost,
  assertRateLimit,
  assertTtl,
  assertWindowSpends,
  decide,
  deliver,
  rateKeyPrefix,
  refusal,
  windowOf,
  type Listener,
} from './store-helpers';

export interface MemoryQueueStoreOptions {
  /** Namespace for every key and channel, e.g. `keel:<instance id>:`. */
  prefix: string;
}

interface Entry {
  value: number;
  /** Epoch ms after which the entry no longer exists; null never expires. */
  expiresAt: number | null;
}

/** The lists of one `appendBounded` group, which expire together. */
interface BoundedGroup {
  lists: Map<string, { entries: string[]; bytes: number }>;
  expiresAt: number;
}

// Expired entries are already invisible on read; the sweep only bounds memory for keys nobody reads again.
const sweepIntervalMs = 60_000;

/**
 * An in-process QueueStore for a single Keel process (REDIS_URL unset). Same semantics as the Redis store,
 * except that nothing is shared: each store instance has its own windows, flags, counters and channels.
 */
export function createMemoryQueueStore({ prefix }: MemoryQueueStoreOptions): QueueStore {
  // One keyspace for flags, claims and counters, as in Redis, so a key means the same thing in both stores.
  const entries = new Map<string, Entry>();
  const channels = new Map<string, Set<Listener>>();
  const records = new Map<string, Map<string, string>>();
  const buffers = new Map<string, BoundedGroup>();
  const limiters = new Map<string, RateLimiterMemory>();
  let closed = false;

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= now) entries.delete(key);
    }
    for (const [key, group] of buffers) {
      if (group.expiresAt <= now) buffers.delete(key);
    }
  }, sweepIntervalMs);
  sweep.unref();

  // Rate windows are read, then written: rate-limiter-flexible's in-memory `consume` counts a refused consume
  // (it increments, then compares) and its `reward` reopens an ended window below zero, so each window operation
  // first reads the window with `get`. Its methods answer through promises, so another caller could run between
  // the read and the write; window operations therefore run one at a time, in call order.
  let windowQueue: Promise<unknown> = Promise.resolve();
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = windowQueue.then(work);
    windowQueue = run.catch(() => undefined);
    return run;
  }

  function publishNow(channel: string, message: string): void {
    const name = prefix + channel;
    const recipients = channels.get(name);
    if (!recipients) return;
    const snapshot = [...recipients];
    // Deliver later, like a network hop, so publishers never run subscriber code on their own stack;
    // re-check membership so an unsubscribe that lands before delivery is honoured.
    setImmediate(() => {
      const current = channels.get(name);
      for (const listener of snapshot) {
        if (current?.has(listener)) deliver(listener, message);
      }
    });
  }

  function liveGroup(name: string): BoundedGroup | undefined {
    const group = buffers.get(name);
    if (group && group.expiresAt <= Date.now()) {
      buffers.delete(name);
      return undefined;
    }
    return group;
  }

  function assertOpen(): void {
    if (closed) throw new Error('Queue store is closed');
  }

  function liveEntry(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }

  function limiterFor(points: number, durationSeconds: number): RateLimiterMemory {
    const id = `${points}:${durationSeconds}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix: rateKeyPrefix(prefix, id) });
      limiters.set(id, limiter);
    }
    return limiter;
  }

  return {
    consume(key, points, durationSeconds, cost = 1) {
      return exclusive(async () => {
        assertOpen();
        assertRateLimit(points, durationSeconds);
        assertCost(cost);
        const limiter = limiterFor(points, durationSeconds);
        const window = windowOf(await limiter.get(key), points);
        // Refused before anything is written, so the window stays exactly as it was.
        if (window.used + cost > points) return refusal(points, durationSeconds, window.used, window.resetMs);
        return decide(limiter.consume(key, cost), points, durationSeconds, cost);
      });
    },

    refund(key, points, durationSeconds, amount) {
      return exclusive(async () => {
        assertOpen();
        assertRateLimit(points, durationSeconds);
        assertAmount(amount);
        const limiter = limiterFor(points, durationSeconds);
        const window = windowOf(await limiter.get(key), points);
        // No open window: the points ended with their window, and rewarding would open a new one below zero.
        if (window.resetMs === 0) return;
        const back = Math.min(amount, window.used);
        if (back === 0) return;
        const res = await limiter.reward(key, back);
        // The window ended in the moment between the read and the reward, which then opened a new one below zero.
        if (res.consumedPoints < 0) await limiter.delete(key);
      });
    },

    charge(key, points, durationSeconds, amount) {
      return exclusive(async () => {
        assertOpen();
        assertRateLimit(points, durationSeconds);
        assertAmount(amount);
        if (amount > 0) await limiterFor(points, durationSeconds).penalty(key, amount);
      });
    },

    consumeAll({ unlessFlags = [], windows }) {
      return exclusive(async () => {
        assertOpen();
        assertWindowSpends(windows);
        const flag = unlessFlags.find((f) => liveEntry(prefix + f) !== undefined);
        if (flag !== undefined) return { outcome: 'flagged' as const, flag };
        // Every window is read before any is written (and nothing else runs in between), as in the Redis script.
        const open = await Promise.all(
          windows.map(async (w) => windowOf(await limiterFor(w.points, w.durationSeconds).get(w.key), w.points)),
        );
        const index = windows.findIndex((w, i) => open[i]!.used + w.cost > w.points);
        if (index >= 0) {
          const { points, durationSeconds } = windows[index]!;
          const { used, resetMs } = open[index]!;
          return { outcome: 'refused' as const, index, decision: refusal(points, durationSeconds, used, resetMs) };
        }
        const decisions = await Promise.all(
          windows.map(async (w) => {
            const res = await limiterFor(w.points, w.durationSeconds).consume(w.key, w.cost);
            return allowance(w.points, res.consumedPoints, res.msBeforeNext);
          }),
        );
        return { outcome: 'allowed' as const, decisions };
      });
    },

    peek(key, points, durationSeconds) {
      return exclusive(async () => {
        assertOpen();
        assertRateLimit(points, durationSeconds);
        return windowOf(await limiterFor(points, durationSeconds).get(key), points);
      });
    },

    setFlag(key, ttlMs) {
      return settle(() => {
        assertOpen();
        assertTtl(ttlMs);
        entries.set(prefix + key, { value: 1, expiresAt: Date.now() + ttlMs });
      });
    },

    hasFlag(key) {
      return settle(() => {
        assertOpen();
        return liveEntry(prefix + key) !== undefined;
      });
    },

    claimOnce(key, ttlMs) {
      return settle(() => {
        assertOpen();
        assertTtl(ttlMs);
        if (liveEntry(prefix + key)) return false;
        entries.set(prefix + key, { value: 1, expiresAt: Date.now() + ttlMs });
        return true;
      });
    },

    incrementCounter(key) {
      return settle(() => {
        assertOpen();
        const entry = liveEntry(prefix + key);
        if (entry) {
          entry.value += 1;
          return entry.value;
        }
        entries.set(prefix + key, { value: 1, expiresAt: null });
        return 1;
      });
    },

    putRecord(collection, id, value) {
      return settle(() => {
        assertOpen();
        const name = prefix + collection;
        if (!records.has(name)) records.set(name, new Map());
        records.get(name)!.set(id, value);
      });
    },

    getRecord(collection, id) {
      return settle(() => {
        assertOpen();
        return records.get(prefix + collection)?.get(id);
      });
    },

    listRecords(collection) {
      return settle(() => {
        assertOpen();
        return [...(records.get(prefix + collection)?.values() ?? [])];
      });
    },

    appendBounded(group, field, added, options) {
      return settle(() => {
        assertOpen();
        assertTtl(options.ttlMs);
        const name = prefix + group;
        let held = liveGroup(name);
        if (!held) buffers.set(name, (held = { lists: new Map(), expiresAt: 0 }));
        held.expiresAt = Date.now() + options.ttlMs;
        let list = held.lists.get(field);
        if (!list || options.reset) held.lists.set(field, (list = { entries: [], bytes: 0 }));
        for (const entry of added) {
          list.entries.push(entry);
          list.bytes += Buffer.byteLength(entry);
        }
        while (list.bytes > options.maxBytes && list.entries.length > 0) {
          list.bytes -= Buffer.byteLength(list.entries.shift()!);
        }
        if (options.publish) publishNow(options.publish.channel, options.publish.message);
      });
    },

    dropBounded(group, field, publish) {
      return settle(() => {
        assertOpen();
        liveGroup(prefix + group)?.lists.delete(field);
        if (publish) publishNow(publish.channel, publish.message);
      });
    },

    readBounded(group) {
      return settle(() => {
        assertOpen();
        return [...(liveGroup(prefix + group)?.lists.values() ?? [])].map((list) => [...list.entries]);
      });
    },

    publish(channel, message) {
      return settle(() => {
        assertOpen();
        publishNow(channel, message);
      });
    },

    subscribe(channel, onMessage) {
      return settle(() => {
        assertOpen();
        const name = prefix + channel;
        // A fresh wrapper per call, so subscribing the same callback twice yields two independent subscriptions.
        const listener: Listener = (message) => onMessage(message);
        let listeners = channels.get(name);
        if (!listeners) {
          listeners = new Set();
          channels.set(name, listeners);
        }
        listeners.add(listener);
        return () =>
          settle(() => {
            const current = channels.get(name);
            if (!current) return;
            current.delete(listener);
            if (current.size === 0) channels.delete(name);
          });
      });
    },

    close() {
      return settle(() => {
        closed = true;
        clearInterval(sweep);
        channels.clear();
        entries.clear();
        buffers.clear();
        limiters.clear();
      });
    },
  };
}

// Runs synchronous work as a promise, turning a throw (closed store, bad argument) into a rejection.
function settle<T>(work: () => T | PromiseLike<T>): Promise<T> {
  return new Promise((resolve) => resolve(work()));
}
