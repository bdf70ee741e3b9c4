// Entry point: the identity service alone (production). `npm start` runs it inside the all-in-one stack.
import Redis from 'ioredis';
import { logRedisErrors } from '../queue/redis-errors';
import { logger, setLogLevel } from '../telemetry/logger';
import { buildAuthApp } from '../auth/app';
import { migrateIdentity } from '../auth/migrate';
import { createPool } from '../db/pool';
import { openAll } from './closers';
import { runMain, serveUntilSignal } from './entry-point';
import { loadConfig, withSecrets } from './identity-service-config';
import type { AuthSettings } from '../auth/config';
import { logConfigWarnings } from '../secrets/env-or-store';

/** What the identity service alone runs on: its migrated database and, when configured, Redis. */
function openResources(env: AuthSettings) {
  return openAll(async (closers) => {
    const pool = closers.add(
      createPool({
        dsn: env.DATABASE_URL,
        max: env.DATABASE_POOL_MAX,
        ssl: env.DATABASE_SSL,
        schema: env.DATABASE_SCHEMA,
        statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      }),
      (p) => p.end(),
    );
    await migrateIdentity(pool, env.DATABASE_SCHEMA);
    const redis = env.REDIS_URL
      ? closers.add(new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2 }), async (r) => r.disconnect())
      : undefined;
    if (redis) logRedisErrors(redis, logger('redis'), 'identity');
    return { pool, redis };
  });
}

async function main(): Promise<void> {
  const { env, warnings } = await withSecrets(loadConfig(process.env));
  // Lines logged outside a request (Redis errors) follow the same level as the app's.
  setLogLevel(env.LOG_LEVEL);
  await serveUntilSignal(await openResources(env), async (resources) => {
    const app = await buildAuthApp(
      { pool: resources.pool, env, redis: resources.redis },
      { logger: { level: env.LOG_LEVEL } },
    );
    logConfigWarnings(app.log, warnings);
    await app.listen({ host: env.HOST, port: env.PORT });
    return app;
  });
}

runMain('keel identity', main);
