import type { FastifyInstance } from 'fastify';
import Redis from 'ioredis';
import { logRedisErrors } from '../queue/redis-errors';
import { logger } from '../telemetry/logger';
import type { Pool } from 'pg';
import type { BudgetSource } from '../jobs/admit';
import { sharedDatabaseBudget } from '../jobs/budget-sources';
import { createPool } from '../db/pool';
import { buildAuthApp } from '../auth/app';
import { migrateIdentity } from '../auth/migrate';
import { identitySettings, type StackIdentityEnv } from './identity-config';
import { noSecrets, type SecretStore } from '../secrets/store';
import { logConfigWarnings } from '../secrets/env-or-store';
import { identityTables, ingestTables, type IdentityTables } from '../db/qualified-tables';

export interface StackIdentity {
  url: string;
  app: FastifyInstance;
  /** The identity tables' pool and names, the default budget, the cookie domain and the OIDC `<idp>` (when set up). */
  pool: Pool;
  tables: IdentityTables;
  defaultBudgetCents: number;
  cookieDomain: string;
  oidcProviderId?: string;
  /** Set when identity shares the ingest database, so admission can read budgets from its tables. */
  budget?: BudgetSource;
  close(): Promise<void>;
}

/**
 * The identity service inside `npm start`, on AUTH_PORT (default 8080). Without DATABASE_URL it shares the
 * stack's pool (the embedded database has one connection), its tables in their own schema; then the API's
 * budget gate reads the same users and ledger.
 */
export async function startIdentityService(options: {
  /** The identity slice of the stack's parsed config. */
  config: StackIdentityEnv;
  dataDir: string;
  pool: Pool;
  databaseUrl: string;
  instanceId: string;
  logLevel: string;
  /** The stack's secrets store, where the identity service's secrets are read (docs/secrets.md); default: none. */
  secrets?: SecretStore;
}): Promise<StackIdentity> {
  const { settings, warnings } = await identitySettings(options.config, {
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    secrets: options.secrets ?? noSecrets,
  });
  const shared = settings.DATABASE_URL === options.databaseUrl;
  const pool = shared
    ? options.pool
    : createPool({
        dsn: settings.DATABASE_URL,
        max: settings.DATABASE_POOL_MAX,
        ssl: settings.DATABASE_SSL,
        schema: settings.DATABASE_SCHEMA,
        statementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
      });
  const redis = settings.REDIS_URL ? new Redis(settings.REDIS_URL, { maxRetriesPerRequest: 2 }) : undefined;
  if (redis) logRedisErrors(redis, logger('redis'), 'identity');
  const close = async () => {
    redis?.disconnect();
    if (!shared) await pool.end();
  };
  try {
    await migrateIdentity(pool, settings.DATABASE_SCHEMA);
    const app = await buildAuthApp(
      { pool, env: { ...settings, KEEL_INSTANCE_ID: options.instanceId }, redis },
      { logger: { level: options.logLevel } },
    );
    logConfigWarnings(app.log, warnings);
    const url = await app.listen({ host: settings.AUTH_HOST, port: settings.AUTH_PORT });
    const defaultBudgetCents = Math.round(settings.DEFAULT_BUDGET_USD * 100);
    return {
      url,
      app,
      pool,
      tables: identityTables(settings.DATABASE_SCHEMA),
      defaultBudgetCents,
      cookieDomain: settings.AUTHLIB_COOKIE_DOMAIN,
      oidcProviderId: settings.IDP_ISSUER_URL ? settings.IDP_ID : undefined,
      budget: shared
        ? sharedDatabaseBudget({
            pool,
            lookup: {
              identity: identityTables(settings.DATABASE_SCHEMA),
              ledger: ingestTables(settings.INGEST_SCHEMA),
              defaultBudgetCents,
            },
          })
        : undefined,
      async close() {
        await app.close();
        await close();
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}
