// Entry point: the identity service alone (production). `npm start` runs it inside the all-in-one stack.
import Redis from 'ioredis';
import { createPool } from '../db/pool';
import { buildAuthApp } from '../auth/app';
import { loadAuthConfig } from '../auth/config';
import { migrateIdentity } from '../auth/migrate';

async function main(): Promise<void> {
  const env = loadAuthConfig();
  const pool = createPool({
    dsn: env.DATABASE_URL,
    max: env.DATABASE_POOL_MAX,
    ssl: env.DATABASE_SSL,
    schema: env.DATABASE_SCHEMA,
  });
  await migrateIdentity(pool, env.DATABASE_SCHEMA);
  const redis = env.REDIS_URL ? new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2 }) : undefined;
  const app = await buildAuthApp({ pool, env, redis }, { logger: { level: env.LOG_LEVEL } });
  await app.listen({ host: env.HOST, port: env.PORT });

  const shutdown = async () => {
    await app.close();
    redis?.disconnect();
    await pool.end();
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
