// Entry point: the identity service alone (production). `npm start` runs it inside the all-in-one stack.
import Redis from 'ioredis';
import { buildAuthApp } from '../auth/app';
import { migrateIdentity } from '../auth/migrate';
import { createPool } from '../db/pool';
import { openAll } from './closers';
import { runMain, serveUntilSignal } from './entry-point';
import { loadConfig, withSecrets } from './identity-service-config';
import type { AuthEnv } from '../auth/config';

/** What the identity service alone runs on: its migrated database and, when configured, Redis. */
function openResources(env: AuthEnv) {
  return openAll(async (closers) => {
    const pool = closers.add(
      createPool({
        dsn: env.DATABASE_URL,
        max: env.DATABASE_POOL_MAX,
        ssl: env.DATABASE_SSL,
        schema: env.DATABASE_SCHEMA,
      }),
      (p) => p.end(),
    );
    await migrateIdentity(pool, env.DATABASE_SCHEMA);
    const redis = env.REDIS_URL
      ? closers.add(new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2 }), async (r) => r.disconnect())
      : undefined;
    return { pool, redis };
  });
}

async function main(): Promise<void> {
  const env = await withSecrets(loadConfig(process.env));
  await serveUntilSignal(await openResources(env), async (resources) => {
    const app = await buildAuthApp(
      { pool: resources.pool, env, redis: resources.redis },
      { logger: { level: env.LOG_LEVEL } },
    );
    await app.listen({ host: env.HOST, port: env.PORT });
    return app;
  });
}

runMain('keel identity', main);
