import { Redis } from 'ioredis';
import { queueKeyPrefix } from '../../queue/create-queue-store';
import { createMemoryQueueStore } from '../../queue/memory-queue-store';
import type { QueueStore } from '../../queue/queue-store';
import { createRedisQueueStore } from '../../queue/redis-queue-store';
import { testRedisUrl, uniqueSuffix } from './env';
import { eventually } from './eventually';

const suffix = uniqueSuffix();
/** How long a wait on a waiter may take before it counts as a hang: generous, a loaded machine is slow. */
const waitLimitMs = 60_000;

interface Implementation {
  name: string;
  /** Whether two store instances on one prefix see the same state (Redis: replicas share it; memory: never). */
  sharedAcrossStores: boolean;
  open(prefix: string): Promise<QueueStore>;
}

const implementations: Implementation[] = [
  { name: 'redis', sharedAcrossStores: true, open: (prefix) => createRedisQueueStore({ url: testRedisUrl, prefix }) },
  { name: 'memory', sharedAcrossStores: false, open: (prefix) => Promise.resolve(createMemoryQueueStore({ prefix })) },
];

/** Polls `condition` until it holds, failing after a bounded wait instead of asserting on elapsed time. */

/** Fails if `promise` has not settled within `ms`, so a hang shows up as a clear failure. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Records what a subscriber receives and lets a test await the n-th message. */
function inbox() {
  const messages: string[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  return {
    messages,
    onMessage(message: string) {
      messages.push(message);
      for (const waiter of waiters.filter((w) => messages.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    },
    async receive(count: number): Promise<string[]> {
      if (messages.length < count) {
        await within(waitLimitMs, new Promise<void>((resolve) => waiters.push({ count, resolve })));
      }
      return messages.slice(0, count);
    },
  };
}

/** A duration the store reports for a window of `seconds`: some of it may have passed, never more than all. */
function expectWithinWindow(ms: number, seconds: number): void {
  expect(ms).toBeGreaterThan(0);
  expect(ms).toBeLessThanOrEqual(seconds * 1000);
}

async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  for await (const keys of redis.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
    if (keys.length > 0) await redis.del(...keys);
  }
}

describe.each(implementations)('$name queue store', ({ name, sharedAcrossStores, open }) => {
  const prefix = queueKeyPrefix(`test-${suffix}-${name}`);
  const otherPrefix = queueKeyPrefix(`test-${suffix}-${name}-other`);
  const stores: QueueStore[] = [];
  let store: QueueStore;

  async function openStore(storePrefix: string): Promise<QueueStore> {
    const opened = await open(storePrefix);
    stores.push(opened);
    return opened;
  }

  beforeAll(async () => {
    store = await openStore(prefix);
  });

  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    if (name === 'redis') {
      const redis = new Redis(testRedisUrl);
      await deleteKeys(redis, `keel:test-${suffix}-*`);
      await redis.quit();
    }
  });

  describe('consume', () => {
    it('allows exactly `points` per window, then refuses with the time left in the window', async () => {
      const allowed = [];
      for (let i = 0; i < 3; i++) allowed.push(await store.consume('login:alice', 3, 60));
      const refused = await store.consume('login:alice', 3, 60);

      expect(allowed.map(({ allowed, remaining, retryAfterMs }) => ({ allowed, remaining, retryAfterMs }))).toEqual([
        { allowed: true, remaining: 2, retryAfterMs: 0 },
        { allowed: true, remaining: 1, retryAfterMs: 0 },
        { allowed: true, remaining: 0, retryAfterMs: 0 },
      ]);
      for (const decision of allowed) expectWithinWindow(decision.resetMs, 60);
      expect(refused.allowed).toBe(false);
      expect(refused.remaining).toBe(0);
      expectWithinWindow(refused.retryAfterMs, 60);
      expect(refused.resetMs).toBe(refused.retryAfterMs);
    });

    it('spends `cost` points at once', async () => {
      const first = await store.consume('tokens:alice', 10, 60, 4);
      const second = await store.consume('tokens:alice', 10, 60, 6);

      expect([first.allowed, first.remaining, second.allowed, second.remaining]).toEqual([true, 6, true, 0]);
      expect((await store.peek('tokens:alice', 10, 60)).used).toBe(10);
    });

    it('refuses a cost that does not fit without spending any of it, so a smaller one still fits', async () => {
      await store.consume('tokens:bob', 10, 60, 4);

      const refused = await store.consume('tokens:bob', 10, 60, 7);

      expect(refused).toEqual({
        allowed: false,
        remaining: 6,
        retryAfterMs: expect.any(Number) as number,
        resetMs: refused.retryAfterMs,
      });
      expectWithinWindow(refused.retryAfterMs, 60);
      expect((await store.peek('tokens:bob', 10, 60)).used).toBe(4);
      expect(await store.consume('tokens:bob', 10, 60, 6)).toMatchObject({ allowed: true, remaining: 0 });
      expect((await store.peek('tokens:bob', 10, 60)).used).toBe(10);
    });

    it('refuses a cost above the whole limit without opening a window, asking to wait one window', async () => {
      const refused = await store.consume('tokens:carol', 5, 60, 6);

      expect(refused).toEqual({ allowed: false, remaining: 5, retryAfterMs: 60_000, resetMs: 0 });
      expect(await store.peek('tokens:carol', 5, 60)).toEqual({ used: 0, limit: 5, resetMs: 0 });
    });

    it(
      sharedAcrossStores
        ? 'never overshoots nor refuses what fits when replicas consume concurrently'
        : 'never overshoots nor refuses what fits when callers consume concurrently',
      async () => {
        // Separate connections for Redis, as worker replicas have; the memory store is one process's store.
        const replicas = sharedAcrossStores ? [store, await openStore(prefix), await openStore(prefix)] : [store];
        const replicaAt = (i: number) => replicas[i % replicas.length]!;

        const requests = await Promise.all(
          Array.from({ length: 60 }, (_, i) => replicaAt(i).consume('rpm:model-a', 25, 60)),
        );
        const costs = Array.from({ length: 60 }, (_, i) => 1 + (i % 7));
        const tokens = await Promise.all(costs.map((cost, i) => replicaAt(i).consume('tpm:model-a', 100, 60, cost)));

        expect(requests.filter((d) => d.allowed)).toHaveLength(25);
        expect(await replicaAt(1).peek('rpm:model-a', 25, 60)).toMatchObject({ used: 25, limit: 25 });
        const spent = costs.filter((_, i) => tokens[i]!.allowed).reduce((sum, cost) => sum + cost, 0);
        const { used } = await replicaAt(2).peek('tpm:model-a', 100, 60);
        expect(used).toBe(spent);
        expect(used).toBeLessThanOrEqual(100);
        // Windows only fill here, so a consume refused at any moment must not fit at the end either; a refusal
        // that counted its points (even briefly) would refuse smaller costs that did fit.
        for (const [i, cost] of costs.entries()) {
          if (!tokens[i]!.allowed) expect(cost).toBeGreaterThan(100 - used);
        }
      },
    );

    it('keeps a separate window per key', async () => {
      await store.consume('login:bob', 1, 60);
      expect((await store.consume('login:bob', 1, 60)).allowed).toBe(false);
      expect((await store.consume('login:carol', 1, 60)).allowed).toBe(true);
    });

    it(
      sharedAcrossStores
        ? 'shares one window between stores on the same prefix, as API replicas do'
        : 'keeps windows inside the store instance (nothing is shared between processes)',
      async () => {
        const replica = await openStore(prefix);
        expect((await store.consume('upload:dave', 2, 60)).allowed).toBe(true);
        expect((await store.consume('upload:dave', 2, 60)).allowed).toBe(true);

        const fromReplica = await replica.consume('upload:dave', 2, 60);

        expect(fromReplica.allowed).toBe(!sharedAcrossStores);
      },
    );

    it('does not share windows with a store on another prefix', async () => {
      const otherInstance = await openStore(otherPrefix);
      await store.consume('login:erin', 1, 60);

      expect((await otherInstance.consume('login:erin', 1, 60)).allowed).toBe(true);
    });

    it('rejects limits and amounts it cannot honour', async () => {
      await expect(store.consume('login:frank', 0, 60)).rejects.toThrow(RangeError);
      await expect(store.consume('login:frank', 1, 0.5)).rejects.toThrow(RangeError);
      await expect(store.consume('login:frank', 5, 60, 0)).rejects.toThrow(RangeError);
      await expect(store.consume('login:frank', 5, 60, 1.5)).rejects.toThrow(RangeError);
      await expect(store.refund('login:frank', 5, 60, -1)).rejects.toThrow(RangeError);
      await expect(store.charge('login:frank', 5, 60, 0.5)).rejects.toThrow(RangeError);
      await expect(store.peek('login:frank', 5, 0)).rejects.toThrow(RangeError);
    });
  });

  describe('refund', () => {
    it('gives points back to the open window, never below zero', async () => {
      await store.consume('tokens:dave', 10, 60, 5);

      await store.refund('tokens:dave', 10, 60, 3);
      expect((await store.peek('tokens:dave', 10, 60)).used).toBe(2);
      await store.refund('tokens:dave', 10, 60, 10);
      const window = await store.peek('tokens:dave', 10, 60);

      expect(window.used).toBe(0);
      expectWithinWindow(window.resetMs, 60);
      expect(await store.consume('tokens:dave', 10, 60, 10)).toMatchObject({ allowed: true, remaining: 0 });
      expect((await store.consume('tokens:dave', 10, 60)).allowed).toBe(false);
    });

    it('never opens a window, so points of an ended window are not given to the next', async () => {
      await store.refund('tokens:erin', 2, 60, 2);
      expect(await store.peek('tokens:erin', 2, 60)).toEqual({ used: 0, limit: 2, resetMs: 0 });

      await store.consume('tokens:erin', 2, 1, 2);
      await eventually(async () => (await store.peek('tokens:erin', 2, 1)).resetMs === 0, {
        what: 'the one-second window to end',
        intervalMs: 10,
      });
      await store.refund('tokens:erin', 2, 1, 2);

      expect(await store.peek('tokens:erin', 2, 1)).toEqual({ used: 0, limit: 2, resetMs: 0 });
      // A window reopened at -2 would have 4 points left after this; an exact one has none.
      expect(await store.consume('tokens:erin', 2, 1, 2)).toMatchObject({ allowed: true, remaining: 0 });
    });
  });

  describe('charge', () => {
    it('spends past the limit, and the window refuses until it ends', async () => {
      await store.consume('tokens:frank', 5, 60, 5);

      await store.charge('tokens:frank', 5, 60, 3);

      expect((await store.peek('tokens:frank', 5, 60)).used).toBe(8);
      expect(await store.consume('tokens:frank', 5, 60)).toMatchObject({ allowed: false, remaining: 0 });
    });

    it('opens a window when none is open', async () => {
      await store.charge('tokens:grace', 5, 60, 2);

      const window = await store.peek('tokens:grace', 5, 60);
      expect(window.used).toBe(2);
      expectWithinWindow(window.resetMs, 60);
    });
  });

  describe('peek', () => {
    it('reads a window without spending, separately for each limit', async () => {
      expect(await store.peek('tokens:heidi', 4, 60)).toEqual({ used: 0, limit: 4, resetMs: 0 });
      await store.consume('tokens:heidi', 4, 60);

      const first = await store.peek('tokens:heidi', 4, 60);
      const second = await store.peek('tokens:heidi', 4, 60);

      expect([first.used, second.used]).toEqual([1, 1]);
      expectWithinWindow(first.resetMs, 60);
      expect(await store.peek('tokens:heidi', 5, 60)).toEqual({ used: 0, limit: 5, resetMs: 0 });
    });
  });

  describe('consumeAll', () => {
    const windows = (who: string, tokens: number) => [
      { key: `day:${who}`, points: 5, durationSeconds: 86_400, cost: 1 },
      { key: `minute:${who}`, points: 2, durationSeconds: 60, cost: 1 },
      { key: `tokens:${who}`, points: 100, durationSeconds: 60, cost: tokens },
    ];

    it('spends every window at once, sharing the windows `consume` and `peek` see', async () => {
      await store.consume('tokens:ivan', 100, 60, 10);

      const decision = await store.consumeAll({ windows: windows('ivan', 30) });

      if (decision.outcome !== 'allowed') throw new Error(`expected allowed, got ${JSON.stringify(decision)}`);
      expect(
        decision.decisions.map(({ allowed, remaining, retryAfterMs }) => [allowed, remaining, retryAfterMs]),
      ).toEqual([
        [true, 4, 0],
        [true, 1, 0],
        [true, 60, 0],
      ]);
      expectWithinWindow(decision.decisions[0]!.resetMs, 86_400);
      expectWithinWindow(decision.decisions[2]!.resetMs, 60);
      expect((await store.peek('day:ivan', 5, 86_400)).used).toBe(1);
      expect((await store.peek('tokens:ivan', 100, 60)).used).toBe(40);
    });

    it('refuses all or nothing, naming the first window that does not fit', async () => {
      await store.consumeAll({ windows: windows('judy', 90) });

      // The day and the minute fit, the tokens do not: nothing is spent anywhere.
      const refused = await store.consumeAll({ windows: windows('judy', 20) });

      expect(refused).toEqual({
        outcome: 'refused',
        index: 2,
        decision: {
          allowed: false,
          remaining: 10,
          retryAfterMs: expect.any(Number) as number,
          resetMs: expect.any(Number) as number,
        },
      });
      if (refused.outcome === 'refused') expectWithinWindow(refused.decision.retryAfterMs, 60);
      expect((await store.peek('day:judy', 5, 86_400)).used).toBe(1);
      expect((await store.peek('minute:judy', 2, 60)).used).toBe(1);
      expect((await store.peek('tokens:judy', 100, 60)).used).toBe(90);

      // A smaller cost still fits; then the minute is spent, and the earlier windows refuse before the later ones.
      expect((await store.consumeAll({ windows: windows('judy', 10) })).outcome).toBe('allowed');
      const minuteSpent = await store.consumeAll({ windows: windows('judy', 100) });
      expect(minuteSpent).toMatchObject({ outcome: 'refused', index: 1, decision: { allowed: false, remaining: 0 } });
      expect((await store.peek('tokens:judy', 100, 60)).used).toBe(100);
    });

    it('opens no window when the cost could never fit', async () => {
      const refused = await store.consumeAll({ windows: windows('ken', 101) });

      expect(refused).toEqual({
        outcome: 'refused',
        index: 2,
        decision: { allowed: false, remaining: 100, retryAfterMs: 60_000, resetMs: 0 },
      });
      expect(await store.peek('day:ken', 5, 86_400)).toEqual({ used: 0, limit: 5, resetMs: 0 });
    });

    it('spends nothing when a flag is set, naming the first one set', async () => {
      await store.setFlag('held:b', 60_000);
      await store.setFlag('held:c', 60_000);

      const flagged = await store.consumeAll({
        unlessFlags: ['held:a', 'held:b', 'held:c'],
        windows: windows('leo', 1),
      });
      const flagsOnly = await store.consumeAll({ unlessFlags: ['held:a'], windows: [] });

      expect(flagged).toEqual({ outcome: 'flagged', flag: 'held:b' });
      expect(flagsOnly).toEqual({ outcome: 'allowed', decisions: [] });
      expect((await store.peek('day:leo', 5, 86_400)).used).toBe(0);
    });

    it('rejects a window listed twice and limits it cannot honour', async () => {
      const twice = [
        { key: 'tokens:mia', points: 10, durationSeconds: 60, cost: 6 },
        { key: 'tokens:mia', points: 10, durationSeconds: 60, cost: 6 },
      ];
      await expect(store.consumeAll({ windows: twice })).rejects.toThrow(RangeError);
      await expect(
        store.consumeAll({ windows: [{ key: 'tokens:mia', points: 10, durationSeconds: 60, cost: 0 }] }),
      ).rejects.toThrow(RangeError);
      expect((await store.peek('tokens:mia', 10, 60)).used).toBe(0);
    });

    it(
      sharedAcrossStores
        ? 'never overshoots any window when replicas spend concurrently'
        : 'never overshoots any window when callers spend concurrently',
      async () => {
        const replicas = sharedAcrossStores ? [store, await openStore(prefix), await openStore(prefix)] : [store];
        const storm = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            replicas[i % replicas.length]!.consumeAll({
              windows: [
                { key: 'storm:minute', points: 20, durationSeconds: 60, cost: 1 },
                { key: 'storm:tokens', points: 1_000, durationSeconds: 60, cost: 70 },
              ],
            }),
          ),
        );

        // 1,000 tokens hold 14 calls of 70; the minute's 20 never come into play.
        expect(storm.filter((d) => d.outcome === 'allowed')).toHaveLength(14);
        expect(storm.filter((d) => d.outcome === 'refused' && d.index === 1)).toHaveLength(16);
        expect((await store.peek('storm:minute', 20, 60)).used).toBe(14);
        expect((await store.peek('storm:tokens', 1_000, 60)).used).toBe(980);
      },
    );
  });

  describe('flags', () => {
    it('is set until its ttl passes, then gone', async () => {
      expect(await store.hasFlag('cancel:job-1')).toBe(false);
      await store.setFlag('cancel:job-1', 60_000);
      await store.setFlag('cancel:job-2', 50);

      expect(await store.hasFlag('cancel:job-1')).toBe(true);
      await eventually(async () => !(await store.hasFlag('cancel:job-2')), {
        what: 'the short-lived flag to expire',
        intervalMs: 10,
      });
      expect(await store.hasFlag('cancel:job-1')).toBe(true);
    });
  });

  describe('claimOnce', () => {
    it('lets the first caller claim a key and refuses every repeat', async () => {
      const claims = [];
      for (let i = 0; i < 3; i++) claims.push(await store.claimOnce('delivery:msg-1', 60_000));

      expect(claims).toEqual([true, false, false]);
      expect(await store.claimOnce('delivery:msg-2', 60_000)).toBe(true);
    });

    it('can be claimed again once its ttl has passed', async () => {
      expect(await store.claimOnce('delivery:msg-3', 50)).toBe(true);

      await eventually(() => store.claimOnce('delivery:msg-3', 60_000), {
        what: 'the claim to expire and be taken again',
        intervalMs: 10,
      });
      expect(await store.claimOnce('delivery:msg-3', 60_000)).toBe(false);
    });
  });

  describe('incrementCounter', () => {
    it('counts 1, 2, 3 per key, separately for each prefix', async () => {
      const counts = [];
      for (let i = 0; i < 3; i++) counts.push(await store.incrementCounter('seq:job-1'));
      const otherInstance = await openStore(otherPrefix);

      expect(counts).toEqual([1, 2, 3]);
      expect(await store.incrementCounter('seq:job-2')).toBe(1);
      expect(await otherInstance.incrementCounter('seq:job-1')).toBe(1);
    });
  });

  describe('records', () => {
    it('stores, replaces, reads and lists records per collection, separately for each prefix', async () => {
      await store.putRecord('workflows', 'wf-1', '{"v":1}');
      await store.putRecord('workflows', 'wf-2', '{"v":2}');
      await store.putRecord('workflows', 'wf-1', '{"v":3}');
      await store.putRecord('prompts', 'pt-1', 'p');
      const otherInstance = await openStore(otherPrefix);

      expect(await store.getRecord('workflows', 'wf-1')).toBe('{"v":3}');
      expect(await store.getRecord('workflows', 'wf-9')).toBeUndefined();
      expect((await store.listRecords('workflows')).sort()).toEqual(['{"v":2}', '{"v":3}']);
      expect(await store.listRecords('nothing-here')).toEqual([]);
      expect(await otherInstance.getRecord('workflows', 'wf-1')).toBeUndefined();
    });
  });

  describe('bounded buffers (appendBounded)', () => {
    it('keeps the newest entries within the byte bound, publishes after storing, resets and drops per list', async () => {
      const heard = inbox();
      const stop = await store.subscribe('deltas:job-1', heard.onMessage);
      const options = { maxBytes: 10, ttlMs: 60_000, publish: { channel: 'deltas:job-1', message: 'm1' } };
      await store.appendBounded('live:job-1', 'call-a', ['aaaa', 'bbbb'], options);
      // Past 10 bytes the oldest go first.
      await store.appendBounded('live:job-1', 'call-a', ['cccc'], { ...options, publish: undefined });
      await store.appendBounded('live:job-1', 'call-b', ['x'], { ...options, publish: undefined });
      expect(await heard.receive(1)).toEqual(['m1']);
      expect((await store.readBounded('live:job-1')).sort()).toEqual([['bbbb', 'cccc'], ['x']]);

      await store.appendBounded('live:job-1', 'call-b', ['y'], { ...options, reset: true, publish: undefined });
      await store.dropBounded('live:job-1', 'call-a', { channel: 'deltas:job-1', message: 'dropped' });
      expect(await heard.receive(2)).toEqual(['m1', 'dropped']);
      expect(await store.readBounded('live:job-1')).toEqual([['y']]);
      expect(await store.readBounded('live:job-2')).toEqual([]);
      await stop();
    });
  });

  describe('publish / subscribe', () => {
    it('delivers to subscribers of that channel only', async () => {
      const onJob1 = inbox();
      const onJob2 = inbox();
      const stop1 = await store.subscribe('events:job-1', onJob1.onMessage);
      const stop2 = await store.subscribe('events:job-2', onJob2.onMessage);

      await store.publish('events:job-1', 'started');
      // Messages from one publisher arrive in order, so if job-2's first message is this marker, it never
      // received "started" — no need to wait for something not to happen.
      await store.publish('events:job-2', 'marker');

      expect(await onJob1.receive(1)).toEqual(['started']);
      expect(await onJob2.receive(1)).toEqual(['marker']);
      await stop1();
      await stop2();
    });

    it('stops delivering to a subscriber once it unsubscribes', async () => {
      const leaving = inbox();
      const staying = inbox();
      const stopLeaving = await store.subscribe('events:job-3', leaving.onMessage);
      const stopStaying = await store.subscribe('events:job-3', staying.onMessage);

      await store.publish('events:job-3', 'before');
      expect(await leaving.receive(1)).toEqual(['before']);
      await stopLeaving();
      await store.publish('events:job-3', 'after');

      expect(await staying.receive(2)).toEqual(['before', 'after']);
      expect(leaving.messages).toEqual(['before']);
      await stopStaying();
    });

    it('does not deliver to a store on another prefix', async () => {
      const otherInstance = await openStore(otherPrefix);
      const foreign = inbox();
      const local = inbox();
      const stopForeign = await otherInstance.subscribe('events:job-4', foreign.onMessage);
      const stopLocal = await store.subscribe('events:job-4', local.onMessage);

      await store.publish('events:job-4', 'mine');
      await otherInstance.publish('events:job-4', 'theirs');

      expect(await local.receive(1)).toEqual(['mine']);
      expect(await foreign.receive(1)).toEqual(['theirs']);
      await stopForeign();
      await stopLocal();
    });
  });
});

describe('redis queue store, seen from Redis', () => {
  const prefix = queueKeyPrefix(`test-${suffix}-raw`);
  const probe = `probe-${suffix}`;
  let store: QueueStore;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(testRedisUrl);
    store = await createRedisQueueStore({ url: testRedisUrl, prefix });
  });

  afterAll(async () => {
    await store.close();
    await deleteKeys(redis, `${prefix}*`);
    await redis.quit();
  });

  it('writes every key under the prefix', async () => {
    await store.setFlag(`flag:${probe}`, 60_000);
    await store.claimOnce(`claim:${probe}`, 60_000);
    await store.incrementCounter(`counter:${probe}`);
    await store.consume(`rate:${probe}`, 5, 60);

    const keys = await redis.keys(`*${probe}*`);

    expect(keys).toHaveLength(4);
    for (const key of keys) expect(key.startsWith(prefix)).toBe(true);
    expect(keys).toEqual(
      expect.arrayContaining([`${prefix}flag:${probe}`, `${prefix}claim:${probe}`, `${prefix}counter:${probe}`]),
    );
    expect(Number(await redis.pttl(`${prefix}flag:${probe}`))).toBeGreaterThan(0);
    expect(await redis.ttl(`${prefix}counter:${probe}`)).toBe(-1);
  });

  it('leaves the counter untouched on a refused consume, and creates no key to peek or refund', async () => {
    const key = `${prefix}rate:3:60:tokens:${probe}`;
    await store.consume(`tokens:${probe}`, 3, 60, 2);
    const ttlBefore = await redis.pttl(key);

    const refused = await store.consume(`tokens:${probe}`, 3, 60, 2);
    await store.peek(`unused:${probe}`, 3, 60);
    await store.refund(`unused:${probe}`, 3, 60, 1);

    expect(refused.allowed).toBe(false);
    expect(await redis.get(key)).toBe('2');
    expect(await redis.pttl(key)).toBeGreaterThan(0);
    expect(await redis.pttl(key)).toBeLessThanOrEqual(ttlBefore);
    expect(await redis.keys(`*unused:${probe}*`)).toEqual([]);
  });

  it('consumeAll keeps its windows under the keys `consume` uses, with the window TTL, and writes nothing refused', async () => {
    const window = { key: `all:${probe}`, points: 3, durationSeconds: 60, cost: 2 };
    await store.consumeAll({ windows: [window] });

    const refused = await store.consumeAll({ windows: [{ ...window, key: `fresh:${probe}` }, window] });

    expect(refused.outcome).toBe('refused');
    expect(await redis.get(`${prefix}rate:3:60:all:${probe}`)).toBe('2');
    expect(await redis.pttl(`${prefix}rate:3:60:all:${probe}`)).toBeGreaterThan(0);
    expect(await redis.keys(`*fresh:${probe}*`)).toEqual([]);
    expect(await store.consume(`all:${probe}`, 3, 60, 2)).toMatchObject({ allowed: false, remaining: 1 });
  });

  it('subscribes to the prefixed channel once, and leaves it when the last local subscriber goes', async () => {
    const channel = `${prefix}events:${probe}`;
    const stopFirst = await store.subscribe(`events:${probe}`, () => undefined);
    const stopSecond = await store.subscribe(`events:${probe}`, () => undefined);

    expect(await redis.pubsub('CHANNELS', `*${probe}*`)).toEqual([channel]);
    expect(await redis.pubsub('NUMSUB', channel)).toEqual([channel, 1]);

    await stopFirst();
    expect(await redis.pubsub('NUMSUB', channel)).toEqual([channel, 1]);
    await stopSecond();
    expect(await redis.pubsub('NUMSUB', channel)).toEqual([channel, 0]);
  });

  it('rejects promptly, naming the address, when Redis is unreachable', async () => {
    const attempt = createRedisQueueStore({ url: 'redis://127.0.0.1:1', prefix });

    await expect(within(15_000, attempt)).rejects.toThrow(/Cannot connect to Redis at redis:\/\/127\.0\.0\.1:1/);
  });
});
