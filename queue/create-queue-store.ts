import { instanceIdPattern } from './config';
import { createMemoryQueueStore } from './memory-queue-store';
import type { QueueStore } from './queue-store';
import { createRedisQueueStore } from './redis-queue-store';
import type { RedisErrorLog } from './redis-errors';

export interface QueueStoreConfig {
  /** Unset: an in-process store, fine for a single process but shared with no other replica. */
  redisUrl?: string;
  instanceId: string;
  /** Where Redis connection errors are logged; the process's structured log by default. */
  log?: RedisErrorLog;
}

/** The namespace of every key and channel of one Keel instance, so several instances can share one Redis. */
export function queueKeyPrefix(instanceId: string): string {
  if (!instanceIdPattern.test(instanceId)) {
    throw new Error(`Invalid instance id "${instanceId}": use lowercase letters, digits and dashes`);
  }
  return `keel:${instanceId}:`;
}

/**
 * Opens the store this process should use: Redis when a URL is configured (rejecting if Redis is unreachable),
 * otherwise in-process.
 */
export async function createQueueStore(config: QueueStoreConfig): Promise<QueueStore> {
  const prefix = queueKeyPrefix(config.instanceId);
  if (config.redisUrl) return createRedisQueueStore({ url: config.redisUrl, prefix, log: config.log });
  return createMemoryQueueStore({ prefix });
}
