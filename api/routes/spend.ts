import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readUserSpend } from '../../db/spend';
import { OWN_INGEST_TABLES } from '../../db/qualified-tables';
import { budgetState, monthStart as budgetMonthStart } from '../../jobs/budget';
import { readSpend } from '../../jobs/ledger';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';
import { OrgBudgetSchema, ProjectBudgetSchema, readTenantBudgets } from './tenant-budgets';

export const MyBudgetsSchema = z.object({
  user_id: z.string(),
  /** First instant (UTC) of the month every figure sums over. */
  period_start: z.string(),
  user: z
    .object({
      exempt: z.boolean().describe('an admin, or a machine user the identity service does not know: no monthly cap'),
      budget_cents: z.number().int().nullable().describe('null: no cap'),
      spent_cents: z.number().int(),
      remaining_cents: z.number().int().nullable(),
      over_budget: z.boolean(),
    })
    .describe("the caller's own monthly budget, as GET /me/budget of the identity service answers it"),
  org: OrgBudgetSchema.describe("the caller's org"),
  projects: z.array(ProjectBudgetSchema).describe("the projects of the caller's org"),
});
export type MyBudgets = z.infer<typeof MyBudgetsSchema>;

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
      '/v1/me/budgets',
      { schema: { response: { 200: MyBudgetsSchema, 401: ErrorSchema, 503: ErrorSchema } } },
      async (request) => {
        const principal = principalOf(request);
        const now = Date.now();
        const since = budgetMonthStart(now);
        const [standing, tenants, ownSpend] = await Promise.all([
          deps.budget?.standing(principal.user_id, now),
          readTenantBudgets(deps.pool, principal.org_id),
          readSpend(deps.pool, OWN_INGEST_TABLES, since, principal.user_id),
        ]);
        // Without an identity service nobody has a budget of their own; a user it does not know is a machine user.
        const user = standing?.user;
        const state = budgetState(
          user ?? { role: 'admin', budgetCents: null },
          standing?.spentCents ?? ownSpend.get(principal.user_id) ?? 0,
          standing?.defaultBudgetCents ?? 0,
          since,
        );
        return {
          user_id: principal.user_id,
          period_start: since.toISOString(),
          user: {
            exempt: state.exempt,
            budget_cents: state.budgetCents,
            spent_cents: state.spentCents,
            remaining_cents: state.remainingCents,
            over_budget: state.overBudget,
          },
          org: tenants.orgs.find((o) => o.org_id === principal.org_id)!,
          projects: tenants.projects,
        };
      },
    );

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
