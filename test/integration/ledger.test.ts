import { Redis } from 'ioredis';
import { queueKeyPrefix } from '../../queue/create-queue-store';
import { createMemoryQueueStore } from '../../queue/memory-queue-store';
import type { QueueStore } from '../../queue/queue-store';
import { createRedisQueueStore } from '../../queue/redis-queue-store';
import { createQuotaLedger, type Quota, type QuotaLedger } from '../../routing/ledger';
import { testRedisUrl, uniqueSuffix } from './env';
import { eventually } from './eventually';

const suffix = uniqueSuffix();
const minuteMs = 60_000;
const dayMs = 86_400_000;

interface Implementation {
  name: string;
  /** Whether two store instances on one prefix see the same windows (Redis: replicas share them; memory: never). */
  sharedAcrossStores: boolean;
  open(prefix: string): Promise<QueueStore>;
}

const implementations: Implementation[] = [
  { name: 'redis', sharedAcrossStores: true, open: (prefix) => createRedisQueueStore({ url: testRedisUrl, prefix }) },
  { name: 'memory', sharedAcrossStores: false, open: (prefix) => Promise.resolve(createMemoryQueueStore({ prefix })) },
];

/** Polls `condition` until it holds, failing after a bounded wait instead of asserting on elapsed time. */

/** The reservation of an allowed reserve, failing the test with the refusal otherwise. */
function reservationOf(result: Awaited<ReturnType<QuotaLedger['reserve']>>) {
  if (!result.ok) throw new Error(`expected the reserve to be allowed, got ${JSON.stringify(result)}`);
  return result.reservation;
}

async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  for await (const keys of redis.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
    if (keys.length > 0) await redis.del(...keys);
  }
}

describe.each(implementations)('$name quota ledger', ({ name, sharedAcrossStores, open }) => {
  const prefix = queueKeyPrefix(`test-${suffix}-ledger-${name}`);
  const stores: QueueStore[] = [];
  const lines: string[] = [];
  let ledger: QuotaLedger;

  async function openStore(): Promise<QueueStore> {
    const opened = await open(prefix);
    stores.push(opened);
    return opened;
  }

  beforeAll(async () => {
    ledger = createQuotaLedger(await openStore(), (line) => lines.push(line));
  });

  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    if (name === 'redis') {
      const redis = new Redis(testRedisUrl);
      await deleteKeys(redis, `${prefix}*`);
      await redis.quit();
    }
  });

  afterEach(() => {
    // A healthy store never makes the ledger fail open; every line here would be a swallowed error.
    expect(lines).toEqual([]);
  });

  it('rpm is exact', async () => {
    const quota: Quota = { rpm: 3, tpm: 100_000, rpd: 1_000 };
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await ledger.reserve('free/rpm-exact', quota, 10));

    expect(results.map((r) => r.ok)).toEqual([true, true, true, false]);
    const usage = await ledger.usage('free/rpm-exact', quota);
    expect(usage.rpm.used).toBe(3);
    // The refused request took nothing from the other windows either.
    expect(usage.rpd.used).toBe(3);
    expect(usage.tpm.used).toBe(30);
  });

  it('rpd is exact', async () => {
    const quota: Quota = { rpm: 1_000, tpm: 100_000, rpd: 3 };
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await ledger.reserve('free/rpd-exact', quota, 10));

    expect(results.map((r) => r.ok)).toEqual([true, true, true, false]);
    const usage = await ledger.usage('free/rpd-exact', quota);
    expect([usage.rpd.used, usage.rpm.used, usage.tpm.used]).toEqual([3, 3, 30]);
  });

  it('tpm reserves the estimate and settles to the true usage', async () => {
    const quota: Quota = { rpm: 100, tpm: 1_000, rpd: 1_000 };
    const tpmUsed = async () => (await ledger.usage('free/tpm', quota)).tpm.used;

    const first = reservationOf(await ledger.reserve('free/tpm', quota, 800));
    expect(await tpmUsed()).toBe(800);
    await ledger.settle(first, 300);
    expect(await tpmUsed()).toBe(300);
    // Settling twice must not move the tokens twice.
    await ledger.settle(first, 300);
    expect(await tpmUsed()).toBe(300);

    expect(await ledger.reserve('free/tpm', quota, 800)).toMatchObject({ ok: false, dimension: 'tpm' });
    const second = reservationOf(await ledger.reserve('free/tpm', quota, 700));
    expect(await tpmUsed()).toBe(1_000);
    // More than estimated: already spent at the provider, so it is counted past the limit rather than refused.
    await ledger.settle(second, 950.5);
    expect(await tpmUsed()).toBe(1_251);
    expect(await ledger.reserve('free/tpm', quota, 1)).toMatchObject({ ok: false, dimension: 'tpm' });
  });

  it('holds the whole minute budget for an estimate above it, instead of shutting the model out', async () => {
    const quota: Quota = { rpm: 100, tpm: 1_000, rpd: 1_000 };

    const reservation = reservationOf(await ledger.reserve('free/huge-estimate', quota, 50_000));
    expect((await ledger.usage('free/huge-estimate', quota)).tpm.used).toBe(1_000);
    await ledger.settle(reservation, 1_200);

    expect((await ledger.usage('free/huge-estimate', quota)).tpm.used).toBe(1_200);
  });

  it('a refused dimension refunds the others (all-or-nothing)', async () => {
    const quota: Quota = { rpm: 2, tpm: 1_000, rpd: 10 };
    reservationOf(await ledger.reserve('free/all-or-nothing', quota, 900));

    // rpd and rpm fit, tpm does not: both requests' points come back.
    expect(await ledger.reserve('free/all-or-nothing', quota, 200)).toMatchObject({ ok: false, dimension: 'tpm' });
    let usage = await ledger.usage('free/all-or-nothing', quota);
    expect([usage.rpd.used, usage.rpm.used, usage.tpm.used]).toEqual([1, 1, 900]);

    // rpd fits, rpm does not: the day's point comes back and no tokens are taken.
    reservationOf(await ledger.reserve('free/all-or-nothing', quota, 100));
    expect(await ledger.reserve('free/all-or-nothing', quota, 1)).toMatchObject({ ok: false, dimension: 'rpm' });
    usage = await ledger.usage('free/all-or-nothing', quota);
    expect([usage.rpd.used, usage.rpm.used, usage.tpm.used]).toEqual([2, 2, 1_000]);
  });

  it('a spent free quota reports which window and when it rolls', async () => {
    const perMinute: Quota = { rpm: 1, tpm: 1_000, rpd: 10 };
    const perDay: Quota = { rpm: 10, tpm: 1_000, rpd: 1 };
    const perToken: Quota = { rpm: 10, tpm: 100, rpd: 10 };
    await ledger.reserve('free/spent-rpm', perMinute, 1);
    await ledger.reserve('free/spent-rpd', perDay, 1);
    await ledger.reserve('free/spent-tpm', perToken, 100);

    const refusals = {
      rpm: await ledger.reserve('free/spent-rpm', perMinute, 1),
      rpd: await ledger.reserve('free/spent-rpd', perDay, 1),
      tpm: await ledger.reserve('free/spent-tpm', perToken, 1),
    };

    for (const [dimension, refusal] of Object.entries(refusals)) {
      expect(refusal).toEqual({ ok: false, dimension, retryAfterMs: expect.any(Number) as number });
    }
    const retryAfter = (r: (typeof refusals)['rpm']) => (r.ok ? 0 : r.retryAfterMs);
    expect(retryAfter(refusals.rpm)).toBeGreaterThan(0);
    expect(retryAfter(refusals.rpm)).toBeLessThanOrEqual(minuteMs);
    expect(retryAfter(refusals.tpm)).toBeGreaterThan(0);
    expect(retryAfter(refusals.tpm)).toBeLessThanOrEqual(minuteMs);
    // A minute cannot have passed since the day window opened, so it rolls in more than a day less a minute.
    expect(retryAfter(refusals.rpd)).toBeGreaterThan(dayMs - minuteMs);
    expect(retryAfter(refusals.rpd)).toBeLessThanOrEqual(dayMs);
    // GET /v1/models shows the same windows.
    const usage = await ledger.usage('free/spent-rpd', perDay);
    expect(usage.rpd).toMatchObject({ used: 1, limit: 1 });
    expect(usage.rpd.resetMs).toBeGreaterThan(dayMs - minuteMs);
  });

  it('concurrent workers never overshoot rpm or rpd', async () => {
    // Three replicas: separate stores (separate Redis connections) on one prefix. The in-process store shares
    // nothing between instances, so there the three workers share one store, as they would in one process.
    const replicaStores = sharedAcrossStores
      ? [await openStore(), await openStore(), await openStore()]
      : [stores[0]!, stores[0]!, stores[0]!];
    const workers = replicaStores.map((s) => createQuotaLedger(s, (line) => lines.push(line)));
    const storm = (modelKey: string, quota: Quota) =>
      Promise.all(Array.from({ length: 60 }, (_, i) => workers[i % workers.length]!.reserve(modelKey, quota, 10)));

    const rpmQuota: Quota = { rpm: 25, tpm: 100_000, rpd: 1_000 };
    const rpdQuota: Quota = { rpm: 1_000, tpm: 100_000, rpd: 25 };
    const [byMinute, byDay] = await Promise.all([storm('free/storm-rpm', rpmQuota), storm('free/storm-rpd', rpdQuota)]);

    expect(byMinute.filter((r) => r.ok)).toHaveLength(25);
    expect(byMinute.filter((r) => !r.ok).every((r) => !r.ok && r.dimension === 'rpm')).toBe(true);
    expect(byDay.filter((r) => r.ok)).toHaveLength(25);
    expect(byDay.filter((r) => !r.ok).every((r) => !r.ok && r.dimension === 'rpd')).toBe(true);
    const minuteUsage = await workers[1]!.usage('free/storm-rpm', rpmQuota);
    const dayUsage = await workers[2]!.usage('free/storm-rpd', rpdQuota);
    // Refused requests gave back everything they took: every window counts exactly the 25 that went ahead.
    expect([minuteUsage.rpm.used, minuteUsage.rpd.used, minuteUsage.tpm.used]).toEqual([25, 25, 250]);
    expect([dayUsage.rpd.used, dayUsage.rpm.used, dayUsage.tpm.used]).toEqual([25, 25, 250]);
  });

  it('a 429 cooldown holds the model until it expires', async () => {
    expect(await ledger.coolingDown('free/cooling')).toBe(false);

    await ledger.cooldown('free/cooling', 100);
    await ledger.cooldown('free/held', 60_000);

    expect(await ledger.coolingDown('free/cooling')).toBe(true);
    expect(await ledger.coolingDown('free/other')).toBe(false);
    await eventually(async () => !(await ledger.coolingDown('free/cooling')), {
      what: 'the cooldown to expire',
      intervalMs: 10,
    });
    expect(await ledger.coolingDown('free/held')).toBe(true);
  });

  it("admit checks the caller's flags, then the cooldown, then reserves as reserve does", async () => {
    const quota: Quota = { rpm: 2, tpm: 1_000, rpd: 10 };
    const store = stores[0]!;
    await store.setFlag('provider:admit:unfunded', 60_000);

    const flagged = await ledger.admit('free/admit-a', quota, 10, ['provider:none', 'provider:admit:unfunded']);
    await ledger.cooldown('free/admit-a', 60_000);
    const flaggedFirst = await ledger.admit('free/admit-a', quota, 10, ['provider:admit:unfunded']);
    const cooling = await ledger.admit('free/admit-a', quota, 10, ['provider:none']);
    const admitted = await ledger.admit('free/admit-b', quota, 600, ['provider:none']);
    const spent = await ledger.admit('free/admit-b', quota, 600, []);
    const unmetered = await ledger.admit('paid/admit-c', undefined, 600, ['provider:none']);

    expect(flagged).toEqual({ outcome: 'flagged', flag: 'provider:admit:unfunded' });
    expect(flaggedFirst).toEqual({ outcome: 'flagged', flag: 'provider:admit:unfunded' });
    expect(cooling).toEqual({ outcome: 'cooling_down' });
    expect(spent).toEqual({ outcome: 'quota_spent', dimension: 'tpm', retryAfterMs: expect.any(Number) as number });
    expect(unmetered).toEqual({ outcome: 'admitted' });
    // Nothing was taken for a flagged, cooling or refused model; the admitted one holds its estimate until settled.
    let usage = await ledger.usage('free/admit-a', quota);
    expect([usage.rpd.used, usage.rpm.used, usage.tpm.used]).toEqual([0, 0, 0]);
    usage = await ledger.usage('free/admit-b', quota);
    expect([usage.rpd.used, usage.rpm.used, usage.tpm.used]).toEqual([1, 1, 600]);
    if (admitted.outcome !== 'admitted' || !admitted.reservation) throw new Error(JSON.stringify(admitted));
    // Not awaited, as the walk does: the ledger's own reads still see it.
    void ledger.settle(admitted.reservation, 200);
    expect((await ledger.usage('free/admit-b', quota)).tpm.used).toBe(200);
  });

  it('every ledger operation is permissive when the store errors', async () => {
    // A store whose connection is gone: every command it is asked for fails.
    const broken = await open(prefix);
    await broken.close();
    const failures: string[] = [];
    const failing = createQuotaLedger(broken, (line) => failures.push(line));
    const quota: Quota = { rpm: 1, tpm: 10, rpd: 1 };

    const reserved = await failing.reserve('free/outage', quota, 5);
    const again = await failing.reserve('free/outage', quota, 5);
    await failing.settle(reservationOf(reserved), 50);
    const usage = await failing.usage('free/outage', quota);
    await failing.cooldown('free/outage', 1_000);
    const cooling = await failing.coolingDown('free/outage');
    const admitted = await failing.admit('free/outage', quota, 5, ['provider:outage:unfunded']);

    expect(reserved.ok).toBe(true);
    expect(admitted.outcome).toBe('admitted');
    expect(again.ok).toBe(true);
    expect(usage).toEqual({
      rpm: { used: 0, limit: 1, resetMs: 0 },
      tpm: { used: 0, limit: 10, resetMs: 0 },
      rpd: { used: 0, limit: 1, resetMs: 0 },
    });
    expect(cooling).toBe(false);
    // One line per failed operation, naming it and the model; settling a permissive reservation touches nothing.
    expect(failures.map((line) => line.split(' ').slice(0, 2).join(' '))).toEqual([
      'reserve free/outage',
      'reserve free/outage',
      'usage free/outage',
      'cooldown free/outage',
      'coolingDown free/outage',
      'admit free/outage',
    ]);
    for (const line of failures) expect(line).toMatch(/failed \(.+\)/);
  });
});
