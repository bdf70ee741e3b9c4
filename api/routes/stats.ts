import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { computeStats } from '../../jobs/stats';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';
import { SLUG } from './list-query';

/** Prompt and completion tokens as the vendors reported them, summed over every LLM call. */
const Tokens = { reasoning_tokens: z.number(), prompt_tokens: z.number(), completion_tokens: z.number() };
const Usage = { jobs: z.number(), cost_usd: z.number(), ...Tokens };

const StatsSchema = z.object({
  window: z.object({ since: z.string().nullable(), until: z.string().nullable() }),
  org_id: z.string().nullable(),
  project_slug: z.string().nullable(),
  jobs: z.object({ total: z.number(), by_status: z.record(z.string(), z.number()) }),
  cost_usd: z.number(),
  ...Tokens,
  by_tier: z.array(z.object({ tier: z.string().nullable(), ...Usage })),
  by_project: z.array(z.object({ project_slug: z.string().nullable(), ...Usage })),
  by_model: z.array(
    z.object({
      provider: z.string(),
      model: z.string(),
      calls: z.number(),
      cost_usd: z.number(),
      ...Tokens,
      fallbacks: z.number(),
    }),
  ),
  effort: z.object({ strongest: z.string().nullable(), jobs_by_rung: z.record(z.string(), z.number()) }),
  fallbacks: z.number(),
  approvals: z.record(z.string(), z.number()),
});

/** GET /v1/stats (docs/work-items.md, "Stats"). */
export function statsRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/stats',
      {
        schema: {
          querystring: z.strictObject({
            since: z.iso.datetime({ offset: true }).optional(),
            until: z.iso.datetime({ offset: true }).optional(),
            project_slug: SLUG.optional(),
            org_id: z.string().min(1).max(200).optional(),
          }),
          response: { 200: StatsSchema, 400: ErrorSchema, 404: ErrorSchema },
        },
      },
      async (request) => computeStats(deps, principalOf(request), request.query),
    );
  };
}
