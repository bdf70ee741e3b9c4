import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UnauthenticatedError } from '../../http/errors';
import { Forbidden, NotFound, OverBudget } from '../../refusals/refusal';
import { readBudgetState, userBudgetFigures } from '../../jobs/budget';
import type { AuthContext } from '../context';
import { BudgetSchema, ErrorSchema } from './schemas';

export const PreflightQuerySchema = z.strictObject({
  workflow: z.string().min(1).max(200).optional(),
  job: z.string().min(1).max(200).optional(),
  /** `1` turns on the within-budget check (and, with it, a database-fresh session check). */
  budget: z.enum(['0', '1']).optional(),
  /** `1` skips the 5-minute cookie cache without checking the budget. */
  fresh: z.enum(['0', '1']).optional(),
});

/**
 * The frontend backend's one-call guard, checked in this order: 401 no valid session; 404 unknown workflow
 * or job (or a job not in the named workflow); 403 the workflow or job belongs to someone else (admins
 * bypass); 402 over budget (with budget=1; admins exempt); else 200. See docs/identity.md.
 */
export function preflightRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/internal/preflight',
      {
        schema: {
          querystring: PreflightQuerySchema,
          response: {
            200: z.object({
              user: z.object({ id: z.string(), email: z.string(), role: z.string() }),
              budget: BudgetSchema.nullable(),
              session: z.object({ source: z.enum(['cache', 'database']) }),
            }),
            400: ErrorSchema,
            401: ErrorSchema,
            402: ErrorSchema,
            403: ErrorSchema,
            404: ErrorSchema,
            503: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const query = request.query;
        const checkBudget = query.budget === '1';
        const session = await ctx.sessions.resolve(request, reply, { fresh: checkBudget || query.fresh === '1' });
        if (!session) throw new UnauthenticatedError();
        const { user } = session;

        let owner: string | undefined;
        if (query.job || query.workflow) {
          const owners = await ctx.ledger.owners({ job: query.job, workflow: query.workflow });
          if (query.job) {
            const job = owners.job;
            if (!job || (query.workflow && job.workflow_id !== query.workflow)) throw new NotFound(`job ${query.job}`);
            owner = job.created_by;
          }
          if (query.workflow) {
            if (!owners.workflow) throw new NotFound(`workflow ${query.workflow}`);
            // A job's own creator decides when both are named: the caller submitted it into this workflow.
            owner ??= owners.workflow.created_by;
          }
        }
        if (owner !== undefined && user.role !== 'admin' && owner !== user.id) {
          throw new Forbidden('not_owner', 'the workflow or job belongs to another user');
        }

        let budget = null;
        if (checkBudget) {
          const state = await readBudgetState(ctx.pool, ctx.budgets, ctx.ledger, user.id, ctx.now());
          if (!state) throw new UnauthenticatedError();
          if (state.budget.overBudget) throw new OverBudget(userBudgetFigures(user.id, state.budget));
          budget = state.budget;
        }
        return {
          user: { id: user.id, email: user.email, role: user.role },
          budget,
          session: { source: session.source },
        };
      },
    );
  };
}
