import type Redis from 'ioredis';
import { COOKIE_CACHE_MS } from './cookie-cache';

/**
 * Users disabled within the last cookie-cache lifetime. A cache cookie issued before the ban would otherwise vouch
 * for the user for up to 5 minutes; a cached check first asks this list (one Redis EXISTS, or a map lookup), and a
 * listed user goes to the database, where the ban ends the session. Entries expire with the longest cache cookie
 * that could still name the user, so the list stays small.
 */
export interface RevokedUsers {
  revoke(userId: string): Promise<void>;
  isRevoked(userId: string): Promise<boolean>;
}

export function createRevokedUsers(options: { redis?: Redis; keyPrefix: string; now: () => number }): RevokedUsers {
  const { redis, keyPrefix, now } = options;
  if (redis) {
    return {
      async revoke(userId) {
        await redis.set(`${keyPrefix}:${userId}`, '1', 'PX', COOKIE_CACHE_MS);
      },
      async isRevoked(userId) {
        return (await redis.exists(`${keyPrefix}:${userId}`)) === 1;
      },
    };
  }
  // One process: memory is the whole truth.
  const until = new Map<string, number>();
  return {
    revoke(userId) {
      until.set(userId, now() + COOKIE_CACHE_MS);
      return Promise.resolve();
    },
    isRevoked(userId) {
      const expiry = until.get(userId);
      if (expiry !== undefined && expiry <= now()) until.delete(userId);
      return Promise.resolve(expiry !== undefined && expiry > now());
    },
  };
}
