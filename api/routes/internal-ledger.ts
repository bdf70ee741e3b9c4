import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OWN_INGEST_TABLES } from '../../db/qualified-tables';
import { requireInternalToken } from '../../http/internal-token';
import {
  LEDGER_OWNERS_ROUTE,
  LEDGER_SPEND_ROUTE,
  LEDGER_TENANT_SPEND_ROUTE,
  LedgerOwners,
  LedgerOwnersQuery,
  LedgerSpend,
  LedgerSpendQuery,
  readOwners,
  readSpend,
  readTenantSpend,
  TenantSpend,
  TenantSpendQuery,
} from '../../jobs/ledger';
import type { ApiDeps } from '../deps';
import { ErrorSchema } from './chat';

/**
 * Service-to-service: the identity service, keeping a database of its own, asks who created a workflow or job (its
 * preflight's ownership check) and what users, orgs and projects spent since an instant (budgets, the admin listings). The ledger is this
 * service's data; the identity service reads it here instead of reaching into this database (jobs/ledger.ts,
 * docs/identity.md "Whose data"). Authenticated by the shared internal token; registered only when that is set.
 */
export function internalLedgerRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const internalToken = deps.internalToken;
    if (!internalToken) return;
    app.get(
      LEDGER_OWNERS_ROUTE,
      {
        config: { public: true },
        schema: { querystring: LedgerOwnersQuery, response: { 200: LedgerOwners, 400: ErrorSchema, 401: ErrorSchema } },
      },
      async (request) => {
        requireInternalToken(request.headers.authorization, internalToken, 'IDENTITY_INTERNAL_TOKEN');
        return readOwners(deps.pool, OWN_INGEST_TABLES, request.query);
      },
    );
    app.get(
      LEDGER_SPEND_ROUTE,
      {
        config: { public: true },
        schema: { querystring: LedgerSpendQuery, response: { 200: LedgerSpend, 400: ErrorSchema, 401: ErrorSchema } },
      },
      async (request) => {
        requireInternalToken(request.headers.authorization, internalToken, 'IDENTITY_INTERNAL_TOKEN');
        const since = new Date(request.query.since);
        const spend = await readSpend(deps.pool, OWN_INGEST_TABLES, since, request.query.user);
        return {
          since: since.toISOString(),
          users: [...spend].map(([userId, cents]) => ({ user_id: userId, cents })),
        };
      },
    );
    app.get(
      LEDGER_TENANT_SPEND_ROUTE,
      {
        config: { public: true },
        schema: {
          querystring: TenantSpendQuery,
          response: { 200: TenantSpend, 400: ErrorSchema, 401: ErrorSchema },
        },
      },
      async (request) => {
        requireInternalToken(request.headers.authorization, internalToken, 'IDENTITY_INTERNAL_TOKEN');
        return readTenantSpend(deps.pool, OWN_INGEST_TABLES, new Date(request.query.since), request.query.org);
      },
    );
  };
}
