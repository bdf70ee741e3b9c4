import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ApiDeps } from '../deps';

/** GET /v1/models: every provider and model Keel can route to, with `configured` and `allowed`. */
export function modelRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/v1/models', async () => ({ models: await deps.models.list() }));
    return Promise.resolve();
  };
}
