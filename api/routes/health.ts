import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { named } from '../../http/named-plugin';

/** Liveness only: the process serves HTTP. Dependencies are checked where they are used. */
export const healthRoutes: FastifyPluginAsyncZod = named('healthRoutes', async (app) => {
  app.get(
    '/healthz',
    { config: { public: true }, schema: { response: { 200: z.object({ status: z.literal('ok') }) } } },
    () => ({
      status: 'ok' as const,
    }),
  );
  return Promise.resolve();
});
