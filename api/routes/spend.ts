import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readUserSpend } from '../../db/spend';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

export const MySpendSchema = z.object({
  user_id: z.string(),
  since: z.string(),
  total_usd: z.number(),
  jobs: z.number().int().describe('every job counted, including those past the by_job list'),
  by_day: z.array(
    z.object({ day: z.string().describe('YYYY-MM-DD, UTC'), jobs: z.number().int(), cost_usd: z.number() }),
  ),
  by_job: z
    .array(
      z.object({
        job_id: z.string(),
        workflow_id: z.string(),
        status: z.string(),
        title: z.string().describe("the first line of the job's prompt"),
        created_at: z.string(),
        cost_usd: z.number(),
      }),
    )
    .describe('the most expensive jobs first, at most 100'),
});

/** The start of the current UTC month, where a budget period starts (jobs/budget.ts). */
function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/**
 * GET /v1/me/spend: the caller's own spend (the acting user's, through the console) since `since` (default: the start
 * of this UTC month), by day and by job, from the rows the budget check sums.
 */
export function spendRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/me/spend',
      {
        schema: {
          querystring: z.strictObject({ since: z.iso.datetime({ offset: true }).optional() }),
          response: { 200: MySpendSchema, 400: ErrorSchema, 401: ErrorSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const since = request.query.since ? new Date(request.query.since) : monthStart(new Date());
        const spend = await readUserSpend(deps.pool, principal.user_id, since);
        return {
          user_id: principal.user_id,
          since: since.toISOString(),
          total_usd: spend.days.reduce((sum, d) => sum + d.cost_usd, 0),
          jobs: spend.totalJobs,
          by_day: spend.days,
          by_job: spend.jobs,
        };
      },
    );
  };
}
