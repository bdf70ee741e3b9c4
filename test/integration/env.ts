import type { Pool } from 'pg';
import { createPool } from '../../db/pool';

/**
 * Where the integration suite finds its real services. Defaults are this project's CI machine:
 * PostgreSQL with trust auth on 127.0.0.1:5432 (database `test`) and Redis on 127.0.0.1:6379.
 */
export const testPostgresDsn = process.env.TEST_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
export const testRedisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * How long a test's pool waits for a PostgreSQL connection. Production fails after 10 s (db/pool.ts); on a machine
 * loaded with other work, opening a backend or waiting for a pool slot can take longer, and a test must not fail
 * because the machine is busy. A real deadlock still fails, after this.
 */
export const TEST_CONNECT_TIMEOUT_MS = 60_000;

/**
 * A pool of the test's own over `schema` in the test PostgreSQL (or `dsn`), sized and timed for a loaded machine. Its
 * connections carry the schema as their application_name, so a test can find its own in pg_stat_activity.
 */
export function createTestPool(schema: string, options: { dsn?: string; max?: number } = {}): Pool {
  const { dsn = testPostgresDsn, max = 5 } = options;
  return createPool({
    dsn,
    max,
    ssl: false,
    schema,
    connectTimeoutMs: TEST_CONNECT_TIMEOUT_MS,
    applicationName: schema,
  });
}

/** A short random suffix so each test file owns its own schema, key prefix and task queue. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}
