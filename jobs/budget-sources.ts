/**
 * The two places a budget can come from (docs/admission.md). Spend is always summed from the ingest service's own
 * ledger (`job_runs`), which the ingest side can always read; what differs is how it learns the user's role,
 * budget and status: from the identity tables in the same database, or from the identity service's internal
 * endpoint when the two services keep separate databases.
 */
import type { Pool } from 'pg';
import { z } from 'zod';
import type { IngestTables } from '../db/qualified-tables';
import { getUser } from '../db/users';
import { Unavailable } from '../refusals/refusal';
import type { BudgetSource } from './admit';
import { monthToDateSpendCents, type BudgetLookup } from './budget';

/** The identity tables are reachable from the ingest service's pool (one database, two schemas). */
export function sharedDatabaseBudget(options: { pool: Pool; lookup: BudgetLookup }): BudgetSource {
  const { pool, lookup } = options;
  return {
    async standing(userId, nowMs) {
      const [user, spentCents] = await Promise.all([
        getUser(pool, lookup.identity, userId),
        monthToDateSpendCents(pool, lookup.ledger, userId, nowMs),
      ]);
      return {
        user: user && { role: user.role, budgetCents: user.budgetCents, disabled: user.banned },
        defaultBudgetCents: lookup.defaultBudgetCents,
        spentCents,
      };
    },
  };
}

/** The path of the identity service's budget-policy endpoint, and the body it answers with. */
export const BUDGET_POLICY_PATH = '/internal/budget-policy';
export const BudgetPolicyResponse = z.object({
  user: z
    .object({
      id: z.string(),
      role: z.enum(['admin', 'user']),
      budgetCents: z.number().int().nonnegative().nullable(),
      disabled: z.boolean(),
    })
    .nullable(),
  defaultBudgetCents: z.number().int().nonnegative(),
});
export type BudgetPolicyResponse = z.infer<typeof BudgetPolicyResponse>;

/** How long the ingest service waits for the identity service before refusing the submission (503). */
const POLICY_TIMEOUT_MS = 3_000;

/**
 * The identity service keeps its own database: its internal endpoint, authenticated by a shared secret, says who the
 * user is; spend comes from the ingest database. An unreachable or misbehaving identity service refuses the
 * submission (503 identity_unavailable): a budget that cannot be read is not waved through.
 */
export function identityServiceBudget(options: {
  identityUrl: string;
  internalToken: string;
  pool: Pool;
  ledger: IngestTables;
  fetch?: typeof fetch;
}): BudgetSource {
  const call = options.fetch ?? fetch;
  return {
    async standing(userId, nowMs) {
      const url = new URL(BUDGET_POLICY_PATH, options.identityUrl);
      url.searchParams.set('user', userId);
      const [policy, spentCents] = await Promise.all([
        readPolicy(call, url, options.internalToken),
        monthToDateSpendCents(options.pool, options.ledger, userId, nowMs),
      ]);
      return {
        user: policy.user ?? undefined,
        defaultBudgetCents: policy.defaultBudgetCents,
        spentCents,
      };
    },
  };
}

async function readPolicy(call: typeof fetch, url: URL, token: string): Promise<BudgetPolicyResponse> {
  let response: Response;
  try {
    response = await call(url, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(POLICY_TIMEOUT_MS),
    });
  } catch (err) {
    throw unavailable(`did not answer: ${(err as Error).message}`);
  }
  if (!response.ok) throw unavailable(`answered ${response.status}`);
  const parsed = BudgetPolicyResponse.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw unavailable('answered a body that is not a budget policy');
  return parsed.data;
}

function unavailable(what: string): Unavailable {
  return new Unavailable('identity_unavailable', `the identity service's budget policy ${what}`);
}
