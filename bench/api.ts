import os from 'node:os';
import { Client, Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { buildApp } from '../api/app';
import { createIdAllocator } from '../db/ids';
import { createQueueStore } from '../queue/create-queue-store';
import type { QueueStore } from '../queue/queue-store';
import type { Teardown } from './run-bench';

/**
 * The real API on a loopback port, as a bench measures it: rate limits high enough never to refuse, no request log,
 * and an empty model list (GET /v1/models is never on a measured path).
 */
export async function startBenchApi(resources: {
  pool: Pool;
  queue: QueueStore;
  temporal: Client;
  taskQueue: string;
}): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const app = await buildApp(
    {
      ...resources,
      ids: createIdAllocator({ pool: resources.pool, queue: resources.queue }),
      models: { list: () => Promise.resolve([]) },
      rateLimits: { userPerMinute: 1_000_000, orgPerMinute: 1_000_000 },
      workspaceRoot: os.tmpdir(),
      heartbeatMs: 15_000,
      streamPollMs: 1_000,
    },
    { logger: false },
  );
  try {
    return { app, baseUrl: await app.listen({ host: '127.0.0.1', port: 0 }) };
  } catch (err) {
    await app.close();
    throw err;
  }
}

/**
 * The bench API for a read path that never calls Temporal (a lazy client that is never dialled), on a queue store of its
 * own (in-process unless `redisUrl`); the queue, the connection and the app are registered on `teardown`.
 */
export async function startReadOnlyBenchApi(
  teardown: Teardown,
  pool: Pool,
  name: string,
  redisUrl?: string,
): Promise<{ app: FastifyInstance; baseUrl: string }> {
  const queue = await createQueueStore({ ...(redisUrl ? { redisUrl } : {}), instanceId: name });
  teardown.push('queue', () => queue.close());
  const connection = Connection.lazy();
  teardown.push('temporal connection', () => connection.close());
  const api = await startBenchApi({ pool, queue, temporal: new Client({ connection }), taskQueue: name });
  teardown.push('api', () => api.app.close());
  return api;
}
