import crypto from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getUser } from '../../db/users';
import { UnauthenticatedError } from '../../http/errors';
import { BUDGET_POLICY_PATH, BudgetPolicyResponse } from '../../jobs/budget-sources';
import type { AuthContext } from '../context';
import { ErrorSchema } from './schemas';

const Query = z.strictObject({ user: z.string().min(1).max(200) });

/** Compares in constant time, so the secret cannot be guessed byte by byte from response times. */
function sameSecret(presented: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(presented).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

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
        const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
        if (!match || !sameSecret(match[1]!, internalToken)) {
          throw new UnauthenticatedError('internal endpoint: send Authorization: Bearer <INTERNAL_API_TOKEN>');
        }
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
