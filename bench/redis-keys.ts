import type { Redis } from 'ioredis';

/** Deletes a bench run's keys (rate-limit windows, id sequences, ledger, live buffers) from the shared Redis. */
export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
