import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { named } from '../../http/named-plugin';

/** Liveness and readiness: answers from memory only, never touching the database. */
export const healthRoutes: FastifyPluginAsyncZod = named('healthRoutes', async (app) => {
  app.get('/healthz', { schema: { response: { 200: z.object({ status: z.literal('ok') }) } } }, async () => ({
    status: 'ok' as const,
  }));
});
