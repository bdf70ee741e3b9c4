// One server process of `bench:sse` (bench/sse.ts starts it; not run by hand): either the real ingest API
// (SSE_MODE=api) or a bare Fastify SSE endpoint (SSE_MODE=bare) that relays a job's live channel as it arrives, with
// no database, no visibility check and no ordering. Each runs alone in its process so its RSS is its own.
// Prints `{"port":N}` on stdout once listening; stops on SIGTERM.
import { Client, Connection } from '@temporalio/client';
import sse from '@fastify/sse';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createPool } from '../db/pool';
import { jobEventsChannel } from '../events/job-event-feed';
import { createQueueStore } from '../queue/create-queue-store';
import type { QueueStore } from '../queue/queue-store';
import { startBenchApi } from './api';

const env = z
  .object({
    SSE_MODE: z.enum(['api', 'bare']),
    SSE_POSTGRES_DSN: z.string().min(1),
    SSE_SCHEMA: z.string().min(1),
    SSE_REDIS_URL: z.string().min(1),
    SSE_INSTANCE_ID: z.string().min(1),
  })
  .parse(process.env);

/** The baseline: each client subscribes to the channel and gets every message as it comes, closing after `final`. */
async function startBare(queue: QueueStore): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(sse, { heartbeatInterval: 15_000 });
  app.get('/v1/jobs/:id/stream', { sse: { kind: 'only', heartbeat: true } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const messages: Array<{ sequence: number; kind: string }> = [];
    let wake: (() => void) | undefined;
    const unsubscribe = await queue.subscribe(jobEventsChannel(id), (message) => {
      messages.push(JSON.parse(message) as { sequence: number; kind: string });
      wake?.();
    });
    let open = true;
    reply.sse.onClose(() => {
      open = false;
      wake?.();
    });
    async function* frames() {
      yield { event: 'ready', data: {} };
      while (open) {
        const event = messages.shift();
        if (!event) {
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        yield { id: String(event.sequence), data: event };
        if (event.kind === 'final') return;
      }
    }
    try {
      await reply.sse.send(frames());
    } finally {
      await unsubscribe();
    }
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return app;
}

async function main(): Promise<void> {
  const queue = await createQueueStore({ redisUrl: env.SSE_REDIS_URL, instanceId: env.SSE_INSTANCE_ID });
  const pool = createPool({ dsn: env.SSE_POSTGRES_DSN, max: 10, ssl: false, schema: env.SSE_SCHEMA });
  const connection = Connection.lazy();
  const app =
    env.SSE_MODE === 'bare'
      ? await startBare(queue)
      : (await startBenchApi({ pool, queue, temporal: new Client({ connection }), taskQueue: 'bench-sse' })).app;
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  console.log(JSON.stringify({ port: address.port }));
  process.once('SIGTERM', () => {
    void (async () => {
      await app.close().catch(() => undefined);
      await Promise.allSettled([queue.close(), pool.end(), connection.close()]);
      process.exit(0);
    })();
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
