import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readBudgetState } from '../../jobs/budget';
import type { AuthContext } from '../context';
import { UnauthenticatedError } from '../../http/errors';
import { requireSession } from '../guards';
import { BudgetSchema, ErrorSchema } from './schemas';

/** The caller's monthly budget against month-to-date spend (always read fresh: the numbers are the point). */
export function meBudgetRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/me/budget',
      { schema: { response: { 200: BudgetSchema, 401: ErrorSchema, 503: ErrorSchema } } },
      async (request, reply) => {
        const session = await requireSession(ctx, request, reply);
        const state = await readBudgetState(ctx.pool, ctx.budgets, ctx.ledger, session.user.id, ctx.now());
        if (!state) throw new UnauthenticatedError();
        return state.budget;
      },
    );
  };
}
