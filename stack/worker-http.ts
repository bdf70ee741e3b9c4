import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createBaseApp } from '../http/base-app';
import { instrumentHttp } from '../metrics/http';

/**
 * A worker alone has no API to probe or scrape, so it serves `/healthz` (and `/metrics`) of its own: 200 while the worker polls its task
 * queue, 503 once it drains or has failed, so an orchestrator restarts a worker that no longer takes work.
 */
export async function serveWorkerHealth(
  workerState: () => string,
  address: { host: string; port: number },
): Promise<FastifyInstance> {
  const app = createBaseApp(
    { title: 'Keel worker', description: "A worker's probe (`/healthz`) and scrape (`/metrics`) endpoints." },
    { logger: false },
  );
  instrumentHttp(app, 'worker');
  const body = z.object({ status: z.enum(['ok', 'unavailable']), worker: z.string() });
  app.get('/healthz', { schema: { response: { 200: body, 503: body } } }, async (_request, reply) => {
    const state = workerState();
    if (state === 'RUNNING') return { status: 'ok' as const, worker: state };
    reply.code(503);
    return { status: 'unavailable' as const, worker: state };
  });
  await app.listen(address);
  return app;
}
