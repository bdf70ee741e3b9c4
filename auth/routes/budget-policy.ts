import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getUser } from '../../db/users';
import { requireInternalToken } from '../../http/internal-token';
import { BUDGET_POLICY_PATH, BudgetPolicyResponse } from '../../jobs/budget-sources';
import type { AuthContext } from '../context';
import { ErrorSchema } from './schemas';

const Query = z.strictObject({ user: z.string().min(1).max(200) });

/**
 * What the ingest API needs to decide a budget when it cannot read the identity tables (separate databases): the
 * user's role, budget and status, and the default budget. Spend is not here: the ingest side sums its own ledger.
 * Service-to-service only, by the shared INTERNAL_API_TOKEN; registered only when that is set. docs/admission.md.
 */
export function budgetPolicyRoutes(ctx: AuthContext, internalToken: string): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      BUDGET_POLICY_PATH,
      { schema: { querystring: Query, response: { 200: BudgetPolicyResponse, 400: ErrorSchema, 401: ErrorSchema } } },
      async (request) => {
        requireInternalToken(request.headers.authorization, internalToken, 'INTERNAL_API_TOKEN');
        const user = await getUser(ctx.pool, ctx.tables, request.query.user);
        return {
          user: user ? { id: user.id, role: user.role, budgetCents: user.budgetCents, disabled: user.banned } : null,
          defaultBudgetCents: ctx.budgets.defaultBudgetCents,
        };
      },
    );
    return Promise.resolve();
  };
}
