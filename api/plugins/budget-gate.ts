import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Pool } from 'pg';
import { readBudgetState, type BudgetLookup } from '../../jobs/budget';
import { OverBudgetError } from '../../http/errors';
import { principalOf } from './principal';

export interface BudgetGateOptions {
  /** A pool that reaches both the identity schema (users) and the ingest schema (job_runs, the spend ledger). */
  pool: Pool;
  lookup: BudgetLookup;
  now?: () => number;
}

/**
 * The soft monthly cap at run submission: a non-admin whose month-to-date spend has reached their budget is
 * refused with 402 before anything is stored or started. Jobs already running are not stopped (they may
 * overshoot). It is the same check as the identity preflight's `budget=1` (jobs/budget.ts). A token whose
 * user the identity service does not know (a machine user) has no budget to enforce and passes.
 */
export function budgetGate(options: BudgetGateOptions): preHandlerAsyncHookHandler {
  const now = options.now ?? Date.now;
  return async function checkBudget(request: FastifyRequest) {
    const principal = principalOf(request);
    if (principal.is_admin) return;
    const state = await readBudgetState(options.pool, options.lookup, principal.user_id, now());
    if (state?.budget.overBudget) {
      throw new OverBudgetError(state.budget.spentCents, state.budget.budgetCents ?? 0);
    }
  };
}

/** The routes that start a new job: a chat submission, a new workflow, a new prompt on a workflow. */
export const SUBMISSION_ROUTES: ReadonlyArray<{ method: string; url: string }> = [
  { method: 'POST', url: '/v1/chat' },
  { method: 'POST', url: '/v1/workflows' },
  { method: 'POST', url: '/v1/workflows/:id/prompts' },
];

/**
 * Adds the gate as a preHandler of every route in `routes` registered after this call, so route files stay
 * unchanged. Call before the routes are registered.
 */
export function attachBudgetGate(
  app: FastifyInstance,
  options: BudgetGateOptions,
  routes: ReadonlyArray<{ method: string; url: string }> = SUBMISSION_ROUTES,
): void {
  const gate = budgetGate(options);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!routes.some((r) => r.url === route.url && methods.includes(r.method))) return;
    const existing = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
    route.preHandler = [gate, ...existing];
  });
}
