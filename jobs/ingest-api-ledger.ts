import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import { Unavailable } from '../refusals/refusal';
import {
  LEDGER_OWNERS_ROUTE,
  LEDGER_SPEND_ROUTE,
  LEDGER_TENANT_SPEND_ROUTE,
  LedgerOwners,
  LedgerSpend,
  TenantSpend,
  type Ledger,
  type LedgerOwnersQuery,
} from './ledger';

/** How long the identity service waits for the ingest API before answering 503 ingest_unavailable. */
export const LEDGER_TIMEOUT_MS = 3_000;
/**
 * How long a spend figure is reused. Short: the preflight's budget check is advisory (the ingest API's own submission
 * gate sums its ledger itself), and a person watching My budget sees a job's cost within seconds.
 */
export const SPEND_CACHE_MS = 2_000;
/** Who created a workflow or job never changes, so a found owner is kept longer; "not found" is never kept. */
export const OWNER_CACHE_MS = 5 * 60_000;
const CACHE_ENTRIES = 10_000;

export interface IngestApiLedgerOptions {
  /** The ingest API's base URL (the identity service's INGEST_URL). */
  ingestUrl: string;
  /** The shared internal token (identity's INTERNAL_API_TOKEN, the API's IDENTITY_INTERNAL_TOKEN). */
  internalToken: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/**
 * Each service owns its database: the identity service asks the ingest API for what the ledger says. A request that
 * fails, times out or answers something else than the contract becomes a refusal with the reason (503
 * `ingest_unavailable`, with Retry-After), never a 500 and never a guess.
 */
export function ingestApiLedger(options: IngestApiLedgerOptions): Ledger {
  const call = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? LEDGER_TIMEOUT_MS;
  const owners = new LRUCache<string, LedgerOwners>({ max: CACHE_ENTRIES, ttl: OWNER_CACHE_MS });
  const spend = new LRUCache<string, Map<string, number>>({ max: CACHE_ENTRIES, ttl: SPEND_CACHE_MS });
  const tenantSpend = new LRUCache<string, TenantSpend>({ max: CACHE_ENTRIES, ttl: SPEND_CACHE_MS });

  async function read<T>(route: string, params: Record<string, string | undefined>, schema: z.ZodType<T>): Promise<T> {
    const url = new URL(route, options.ingestUrl);
    for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
    let response: Response;
    try {
      response = await call(url, {
        headers: { authorization: `Bearer ${options.internalToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw unavailable(`did not answer within ${timeoutMs} ms (${(err as Error).message})`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw unavailable(`answered ${response.status}`);
    }
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw unavailable(`answered a body that is not the ledger's contract`);
    return parsed.data;
  }

  async function spendSince(since: Date, userId?: string): Promise<Map<string, number>> {
    const key = `${since.toISOString()} ${userId ?? '*'}`;
    const cached = spend.get(key);
    if (cached) return cached;
    const answer = await read(LEDGER_SPEND_ROUTE, { since: since.toISOString(), user: userId }, LedgerSpend);
    const byUser = new Map(answer.users.map((u) => [u.user_id, u.cents]));
    spend.set(key, byUser);
    return byUser;
  }

  return {
    async owners(query: LedgerOwnersQuery) {
      const key = `${query.job ?? ''} ${query.workflow ?? ''}`;
      const cached = owners.get(key);
      if (cached) return cached;
      const answer = await read(LEDGER_OWNERS_ROUTE, query, LedgerOwners);
      const complete = (!query.job || answer.job !== null) && (!query.workflow || answer.workflow !== null);
      if (complete) owners.set(key, answer);
      return answer;
    },
    spendCents: async (userId, since) => (await spendSince(since, userId)).get(userId) ?? 0,
    spendByUser: (since) => spendSince(since),
    async tenantSpend(since, orgId) {
      const key = `${since.toISOString()} ${orgId ?? '*'}`;
      const cached = tenantSpend.get(key);
      if (cached) return cached;
      const answer = await read(LEDGER_TENANT_SPEND_ROUTE, { since: since.toISOString(), org: orgId }, TenantSpend);
      tenantSpend.set(key, answer);
      return answer;
    },
  };
}

function unavailable(what: string): Unavailable {
  return new Unavailable(
    'ingest_unavailable',
    `the ingest API's ledger (who owns a job, what users, orgs and projects spent) ${what}`,
  );
}
