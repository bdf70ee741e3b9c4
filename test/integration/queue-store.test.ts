import { Redis } from 'ioredis';
import { queueKeyPrefix } from '../../queue/create-queue-store';
import { createMemoryQueueStore } from '../../queue/memory-queue-store';
import type { QueueStore } from '../../queue/queue-store';
import { createRedisQueueStore } from '../../queue/redis-queue-store';
import { testRedisUrl, uniqueSuffix } from './env';

const suffix = uniqueSuffix();
const waitLimitMs = 5_000;

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
async function waitUntil(description: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + waitLimitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

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

      expect(allowed).toEqual([
        { allowed: true, remaining: 2, retryAfterMs: 0 },
        { allowed: true, remaining: 1, retryAfterMs: 0 },
        { allowed: true, remaining: 0, retryAfterMs: 0 },
      ]);
      expect(refused.allowed).toBe(false);
      expect(refused.remaining).toBe(0);
      expect(refused.retryAfterMs).toBeGreaterThan(0);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    });

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

    it('rejects limits it cannot honour', async () => {
      await expect(store.consume('login:frank', 0, 60)).rejects.toThrow(RangeError);
      await expect(store.consume('login:frank', 1, 0.5)).rejects.toThrow(RangeError);
    });
  });

  describe('flags', () => {
    it('is set until its ttl passes, then gone', async () => {
      expect(await store.hasFlag('cancel:job-1')).toBe(false);
      await store.setFlag('cancel:job-1', 60_000);
      await store.setFlag('cancel:job-2', 50);

      expect(await store.hasFlag('cancel:job-1')).toBe(true);
      await waitUntil('the short-lived flag expires', async () => !(await store.hasFlag('cancel:job-2')));
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

      await waitUntil('the claim expires and can be taken again', () => store.claimOnce('delivery:msg-3', 60_000));
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
