import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../deps';

const Quota = z.object({ used: z.number(), limit: z.number(), reset_ms: z.number() });

/** One row of GET /v1/models (routing/router.ts `ModelListing`). */
const ModelListingSchema = z.object({
  provider: z.string(),
  model: z.string(),
  display_name: z.string(),
  wire: z.string(),
  features: z.array(z.string()),
  cost_tier: z.string(),
  // cached_input / cache_write appear when the catalog prices the vendor's prompt cache (docs/models.md).
  pricing_per_1k: z
    .object({
      input: z.number(),
      output: z.number(),
      cached_input: z.number().optional(),
      cache_write: z.number().optional(),
    })
    .nullable(),
  context_tokens: z.number(),
  max_output_tokens: z.number(),
  effort_rungs: z.array(z.string()),
  quota: z.object({ rpm: Quota, tpm: Quota, rpd: Quota }).nullable(),
  configured: z.boolean(),
  allowed: z.boolean(),
});

/** GET /v1/models: every provider and model Keel can route to, with `configured` and `allowed`. */
export function modelRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/models',
      { schema: { response: { 200: z.object({ models: z.array(ModelListingSchema) }) } } },
      async () => ({ models: await deps.models.list() }),
    );
    return Promise.resolve();
  };
}
