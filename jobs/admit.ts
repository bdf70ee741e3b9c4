/**
 * Admission: the one path every front door takes before a job starts (the ingest API's submission routes, the
 * console through them, team chat's turns). In order: the caller is authenticated by its door (token, session or
 * request signature), then charged one point of the per-user and per-org rate-limit windows, then checked against
 * the monthly budget, and only then is anything stored or started. See docs/admission.md.
 */
import type { Principal } from './visibility';
import type { QueueStore, RateDecision } from '../queue/queue-store';
import { OverBudget, RateLimited, Refusal } from '../refusals/refusal';
import { recordUserBudget, userBudgetOf } from '../db/user-budget-standings';
import { budgetState, monthStart, userBudgetFigures, type BudgetState } from './budget';
import { OWN_INGEST_TABLES } from '../db/qualified-tables';
import type { Queryable, Role } from '../db/users';
import { databaseLedger } from './ledger';
import { tenantBudgetFigures, type BudgetFigures, type ProjectRef } from './tenant-budgets';

export interface RateLimits {
  userPerMinute: number;
  orgPerMinute: number;
}

/** What the identity service says about a user, for the budget decision. */
export interface BudgetPolicyUser {
  role: Role;
  /** null: the user has no budget of their own and gets the default. */
  budgetCents: number | null;
  /** Disabled (banned) users start nothing, whatever their budget. */
  disabled: boolean;
}

/** A user's standing this month: the identity service's word on the user, and the spend in the ingest ledger. */
export interface BudgetStanding {
  /** Undefined when the identity service does not know the user (a machine user, a team-chat person). */
  user: BudgetPolicyUser | undefined;
  defaultBudgetCents: number;
  spentCents: number;
}

/**
 * Where budgets come from: the identity tables in the same database (`sharedDatabaseBudget`) or the identity
 * service's internal endpoint when the databases differ (`identityServiceBudget`).
 */
export interface BudgetSource {
  standing(userId: string, nowMs: number): Promise<BudgetStanding>;
}

/** How a door treats a principal the identity service does not know. */
export type UnknownUsers =
  /** An API token of a machine user (the stack's `dev`): no budget to enforce. */
  | 'exempt'
  /** A person who reaches Keel without an identity account (team chat): the default monthly budget. */
  | 'default-budget';

export interface AdmissionDeps {
  queue: QueueStore;
  rateLimits: RateLimits;
  /** Absent when no identity service is configured: nobody has a budget of their own. */
  budget?: BudgetSource;
  /**
   * The ingest database (its own search path): orgs' and projects' budgets and the ledger they are held to. Absent
   * only without a database (api/app-without-database.ts), where no org or project has a budget.
   */
  pool?: Queryable;
  now?: () => number;
}

export class AccountDisabledError extends Refusal {
  override name = 'AccountDisabledError';
  constructor() {
    super('forbidden', 'account_disabled', 'this account is disabled: it may not start jobs');
  }
}

/**
 * One point of the principal's per-user and per-org windows (shared by every replica through the queue store). Both
 * are charged concurrently, one round trip; an acting user has a window of their own, not the console token's.
 */
export async function chargeRateLimits(
  deps: AdmissionDeps,
  principal: Principal,
  onUnavailable: (err: unknown) => void = () => {},
): Promise<void> {
  let user: RateDecision, org: RateDecision;
  try {
    [user, org] = await Promise.all([
      deps.queue.consume(`rl:user:${principal.user_id}`, deps.rateLimits.userPerMinute, 60),
      deps.queue.consume(`rl:org:${principal.org_id}`, deps.rateLimits.orgPerMinute, 60),
    ]);
  } catch (err) {
    // Rate limits protect the service, not the data: with the queue store (Redis) down they let requests through
    // rather than refuse every one of them (docs/failure-modes.md).
    onUnavailable(err);
    return;
  }
  if (!user.allowed) throw new RateLimited('per-user', user.retryAfterMs);
  if (!org.allowed) throw new RateLimited('per-org', org.retryAfterMs);
}

/**
 * The principal's budget this month, or undefined when no budget applies (no identity service, an admin, an
 * exempt machine user). Throws AccountDisabledError for a disabled identity user.
 */
export async function budgetOf(
  deps: AdmissionDeps,
  principal: Principal,
  unknownUsers: UnknownUsers,
  nowMs = (deps.now ?? Date.now)(),
): Promise<BudgetState | undefined> {
  if (!deps.budget) return undefined;
  if (principal.is_admin) {
    await keepUserBudget(deps, principal.user_id, null);
    return undefined;
  }
  const standing = await deps.budget.standing(principal.user_id, nowMs);
  if (standing.user?.disabled) throw new AccountDisabledError();
  if (!standing.user && unknownUsers === 'exempt') {
    await keepUserBudget(deps, principal.user_id, null);
    return undefined;
  }
  const user = standing.user ?? { role: 'user' as const, budgetCents: null };
  const state = budgetState(user, standing.spentCents, standing.defaultBudgetCents, monthStart(nowMs));
  await keepUserBudget(deps, principal.user_id, state.exempt ? null : state.budgetCents);
  return state;
}

/**
 * Keeps the user's monthly budget as just read where the workers' reservations read it (migration 0033): their jobs'
 * model calls are held to it too (docs/budgets.md). null: no cap.
 */
async function keepUserBudget(deps: AdmissionDeps, userId: string, budgetCents: number | null): Promise<void> {
  if (deps.pool) await recordUserBudget(deps.pool, userId, budgetCents);
}

/**
 * Reads the user's monthly budget again before one of their jobs is resumed (POST /v1/jobs/:id/resume): a job paused
 * on it goes on after `retry` once an admin has raised it in the identity service. Only for a user admission recorded a
 * budget for, and only a user the identity service knows; an identity service that does not answer leaves the recorded
 * budget as it was (the job then asks again if the call still does not fit) and is logged, not refused.
 */
export async function refreshUserBudget(
  deps: Pick<AdmissionDeps, 'budget' | 'pool' | 'now'>,
  userId: string,
  log: { warn: (obj: object, msg: string) => void },
): Promise<void> {
  if (!deps.budget || !deps.pool) return;
  if ((await userBudgetOf(deps.pool, userId)) === undefined) return;
  try {
    const standing = await deps.budget.standing(userId, (deps.now ?? Date.now)());
    const user = standing.user;
    if (!user) return;
    await recordUserBudget(
      deps.pool,
      userId,
      user.role === 'admin' ? null : (user.budgetCents ?? standing.defaultBudgetCents),
    );
  } catch (err) {
    log.warn({ err, userId }, 'the user budget could not be read again before a resume: the recorded one stays');
  }
}

/**
 * Every monthly budget that binds a job the principal submits into `project` (or no project), with what is left this
 * month: the user's own (none for an admin or an exempt machine user), the project's and the org's (whoever submits;
 * docs/budgets.md). In that order, so the first one reached is the narrowest. Throws AccountDisabledError for a
 * disabled identity user. A later check before each model call reads the same figures and takes the least left.
 */
export async function bindingBudgets(
  deps: AdmissionDeps,
  principal: Principal,
  unknownUsers: UnknownUsers,
  project?: ProjectRef,
): Promise<BudgetFigures[]> {
  const nowMs = (deps.now ?? Date.now)();
  const [user, tenants] = await Promise.all([
    budgetOf(deps, principal, unknownUsers, nowMs),
    deps.pool
      ? tenantBudgetFigures(
          deps.pool,
          databaseLedger(deps.pool, OWN_INGEST_TABLES),
          {
            orgId: principal.org_id,
            project,
          },
          nowMs,
        )
      : [],
  ]);
  const userFigures =
    user?.budgetCents == null
      ? []
      : [
          {
            ...userBudgetFigures(principal.user_id, user),
            over_budget: user.overBudget,
          },
        ];
  return [...userFigures, ...tenants];
}

/**
 * Refuses (402 over_budget) a submission when a budget that binds it is spent: the principal's own, the project's or
 * the org's, naming which one and what is left in the body's `error.budget`.
 */
export async function checkBudget(
  deps: AdmissionDeps,
  principal: Principal,
  unknownUsers: UnknownUsers,
  project?: ProjectRef,
): Promise<void> {
  const spent = (await bindingBudgets(deps, principal, unknownUsers, project)).find((b) => b.over_budget);
  if (spent) {
    const { over_budget: _over, ...named } = spent;
    throw new OverBudget(named);
  }
}

declare const admittedBrand: unique symbol;
/**
 * A principal that passed admission. `submitJob`, `appendPrompt` and `startSystemJob` take only this, and only `admit`
 * makes one, so a door that forgot admission does not compile.
 */
export type Admitted = Principal & { readonly [admittedBrand]: true };

export interface AdmitOptions {
  unknownUsers: UnknownUsers;
  /**
   * The request already spent its rate-limit point: the ingest API charges every /v1/* request when it authenticates
   * it, submissions included, so a submission is not charged twice.
   */
  rateLimitCharged?: boolean;
  /** The project the job will run in (the one named, or the workflow's), whose budget binds it too. */
  project?: ProjectRef;
}

/**
 * Rate limit, then budget, then `submit`. A refusal throws before `submit` runs, so nothing is stored or started.
 * Every door that starts a job calls this; none calls `submitJob` or `appendPrompt` on its own.
 */
export async function admit<T>(
  deps: AdmissionDeps,
  principal: Principal,
  options: AdmitOptions,
  submit: (admitted: Admitted) => Promise<T>,
): Promise<T> {
  if (!options.rateLimitCharged) await chargeRateLimits(deps, principal);
  await checkBudget(deps, principal, options.unknownUsers, options.project);
  return submit(principal as Admitted);
}
