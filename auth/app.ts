import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type Redis from 'ioredis';
import type { Pool } from 'pg';
import { createBaseApp } from '../http/base-app';
import { Forbidden } from '../refusals/refusal';
import { instrumentHttp } from '../metrics/http';
import type { ApiInfo } from '../http/openapi';
import type { AuthSettings } from './config';
import type { AuthContext } from './context';
import { OidcClient } from './oidc';
import { adminPluginRoutes } from './routes/admin-plugin';
import { adminUserRoutes } from './routes/admin-users';
import { budgetPolicyRoutes } from './routes/budget-policy';
import { healthRoutes } from './routes/health';
import { meBudgetRoutes } from './routes/me-budget';
import { peopleRoutes } from './routes/people';
import { peopleWithRoleRoutes } from './routes/people-with-role';
import { oidcRoutes } from './routes/oidc';
import { passwordRoutes } from './routes/password';
import { preflightRoutes } from './routes/preflight';
import { sessionRoutes } from './routes/session';
import { SESSION_COOKIE, SessionResolver } from './session-resolver';
import { createSessionStore } from './sessions';
import { createSignInLimiter } from './sign-in-rate-limit';
import { createRevokedUsers } from './revoked-users';
import { identityTables, ingestTables } from '../db/qualified-tables';
import { startRevocationDelivery } from './token-revocations';
import { named } from '../http/named-plugin';
import { ingestApiLedger } from '../jobs/ingest-api-ledger';
import { databaseLedger, type Ledger } from '../jobs/ledger';

const IDENTITY_API: ApiInfo = {
  title: 'Keel identity service',
  description: 'Sign-in, sessions, users, roles, budgets, the audit log and the preflight the other services ask.',
};

/** Request bodies here are small JSON objects (credentials, admin changes). */
const BODY_LIMIT_BYTES = 64 * 1024;

export interface AuthDeps {
  /** Holds the identity schema (DATABASE_SCHEMA) and can read the ingest schema's job_runs and workflows. */
  pool: Pool;
  env: AuthSettings;
  /** Shares the sign-in rate limit across replicas; undefined → this process's memory. */
  redis?: Redis;
  /** Milliseconds since the epoch; tests move it to expire the 5-minute cookie cache. */
  now?: () => number;
}

/**
 * Cookies are Secure whenever the service's origin is HTTPS, and on any host that is not loopback; only a plain-http
 * loopback origin (local development, `npm start`, tests) gets cookies without it, since a browser refuses a Secure
 * cookie from an http page there. The console adds Secure to every cookie it relays over HTTPS on its own side
 * (console/server/secure-cookies.ts), for an identity service reached over loopback behind it.
 */
export function cookieIsSecure(authUrl: string): boolean {
  const url = new URL(authUrl);
  if (url.protocol === 'https:') return true;
  const host = url.hostname;
  return !(host === 'localhost' || host === '127.0.0.1' || host === '[::1]');
}

/**
 * Where the identity service reads the ingest service's ledger: the ingest API's internal routes when INGEST_URL says
 * the API keeps a database of its own (with the shared INTERNAL_API_TOKEN; the config refuses INGEST_URL without it),
 * else the ingest schema in this database (jobs/ledger.ts).
 */
function ledgerFor(env: AuthSettings, deps: AuthDeps): Ledger {
  if (env.INGEST_URL && env.INTERNAL_API_TOKEN) {
    return ingestApiLedger({ ingestUrl: env.INGEST_URL, internalToken: env.INTERNAL_API_TOKEN });
  }
  return databaseLedger(deps.pool, ingestTables(env.INGEST_SCHEMA));
}

/**
 * Builds the identity service without listening; the caller owns the pool and Redis and closes them after
 * `app.close()`. Migrations are the entry point's job (auth/migrate.ts).
 */
export async function buildAuthApp(
  deps: AuthDeps,
  options: Omit<FastifyServerOptions, 'http2' | 'https'> = {},
): Promise<FastifyInstance> {
  const { env } = deps;
  const now = deps.now ?? Date.now;
  const tables = identityTables(env.DATABASE_SCHEMA);
  const ingest = ingestTables(env.INGEST_SCHEMA);
  const store = createSessionStore({
    pool: deps.pool,
    tables,
    cookieName: SESSION_COOKIE,
    // Browsers refuse Domain=localhost; a host-only cookie is the local equivalent.
    cookieDomain: env.AUTHLIB_COOKIE_DOMAIN === 'localhost' ? undefined : env.AUTHLIB_COOKIE_DOMAIN,
    secure: cookieIsSecure(env.AUTHLIB_URL),
  });
  const revokedUsers = createRevokedUsers({
    redis: deps.redis,
    keyPrefix: `keel:${env.KEEL_INSTANCE_ID}:auth:revoked`,
    now,
  });
  const ctx: AuthContext = {
    pool: deps.pool,
    env,
    now,
    tables,
    ingestTables: ingest,
    ledger: ledgerFor(env, deps),
    budgets: { identity: tables, ledger: ingest, defaultBudgetCents: Math.round(env.DEFAULT_BUDGET_USD * 100) },
    sessions: new SessionResolver(store, now, revokedUsers),
    revokedUsers,
    signInLimiter: createSignInLimiter({ redis: deps.redis, keyPrefix: `keel:${env.KEEL_INSTANCE_ID}:auth:sign-in` }),
    oidc:
      env.IDP_ISSUER_URL && env.IDP_CLIENT_ID && env.IDP_CLIENT_SECRET
        ? new OidcClient({
            issuerUrl: env.IDP_ISSUER_URL,
            clientId: env.IDP_CLIENT_ID,
            clientSecret: env.IDP_CLIENT_SECRET,
            redirectUri: `${env.AUTHLIB_URL}/api/auth/callback/${env.IDP_ID}`,
          })
        : undefined,
  };

  const app = createBaseApp(IDENTITY_API, {
    bodyLimit: BODY_LIMIT_BYTES,
    // Only the configured number of proxy hops may set the client IP that keys the sign-in rate limit.
    trustProxy: (_address: string, hop: number) => hop < env.TRUST_PROXY_HOPS,
    ...options,
  });

  instrumentHttp(app, 'identity');

  if (env.INGEST_URL && env.INTERNAL_API_TOKEN) {
    const internalToken = env.INTERNAL_API_TOKEN;
    const revocations = startRevocationDelivery({
      pool: deps.pool,
      tables,
      ingestUrl: env.INGEST_URL,
      internalToken: () => internalToken,
      log: app.log,
    });
    ctx.revocations = revocations;
    app.addHook('onClose', () => revocations.stop());
  }

  await app.register(cookie, { secret: env.AUTHLIB_SECRET });
  // TRUSTED_ORIGINS is the one list for CORS and the origin check: a request carrying any other Origin is
  // refused with 403 before a handler runs, which makes a CORS preflight from it fail.
  const trusted = new Set([env.AUTHLIB_URL, ...env.TRUSTED_ORIGINS]);
  await app.register(cors, {
    credentials: true,
    methods: ['GET', 'POST', 'PATCH'],
    origin: (origin, callback) => {
      if (origin === undefined || trusted.has(origin)) callback(null, true);
      else callback(new Forbidden('origin_not_trusted', `origin ${origin} is not in TRUSTED_ORIGINS`), false);
    },
  });

  await app.register(healthRoutes);
  // Each under its factory's name (`sessionRoutes`), which is what fastify shows for it (http/named-plugin.ts).
  const routeFactories = [passwordRoutes, sessionRoutes, oidcRoutes, adminUserRoutes, adminPluginRoutes];
  for (const routes of [...routeFactories, meBudgetRoutes, peopleRoutes, preflightRoutes]) {
    await app.register(named(routes.name, routes(ctx)));
  }
  if (env.INTERNAL_API_TOKEN) {
    await app.register(named(budgetPolicyRoutes.name, budgetPolicyRoutes(ctx, env.INTERNAL_API_TOKEN)));
    await app.register(named(peopleWithRoleRoutes.name, peopleWithRoleRoutes(ctx, env.INTERNAL_API_TOKEN)));
  }
  return app;
}
