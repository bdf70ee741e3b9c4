import { Pool } from 'pg';
import type { PostgresEnv } from './config';

export interface PoolOptions {
  dsn: string;
  max: number;
  ssl: boolean;
  schema: string;
  /**
   * How long a query waits for a connection (a new one, or a free one of the pool's `max`) before it fails, so a
   * database that does not answer is a bounded 503, never a hang. Default 10 s; the test harness gives a slow, loaded
   * machine more.
   */
  connectTimeoutMs?: number;
  /** The name each connection gives PostgreSQL (pg_stat_activity.application_name): whose connections these are. */
  applicationName?: string;
}

/**
 * Creates the process's one pool. Every connection's search_path is the Keel schema, so SQL stays
 * unqualified and a test can own a schema of its own. Embedded PGlite serves one session (it sets
 * its search path itself), so the stack passes `max: 1` and every component queues on it.
 */
export function createPool(options: PoolOptions): Pool {
  const pool = new Pool({
    connectionString: options.dsn,
    max: options.max,
    ssl: options.ssl ? { rejectUnauthorized: true } : undefined,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: options.applicationName,
    // A startup parameter, so the search path is in force before the first query on every connection.
    options: `-c search_path="${options.schema}",public`,
  });
  // An idle client losing its connection must not crash the process; the next checkout reconnects.
  pool.on('error', () => undefined);
  // pg-pool listens for an idle client's errors only while it is idle: a client checked out (a transaction waiting on
  // Temporal, say) whose server goes away would emit 'error' with no listener and end the process. Its query fails
  // instead, and the pool drops it on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** The pool of a process that runs alone against a configured database (POSTGRES_DSN required by its config). */
export function createPoolFromEnv(env: PostgresEnv): Pool {
  if (!env.POSTGRES_DSN) throw new Error('POSTGRES_DSN is not set');
  return createPool({
    dsn: env.POSTGRES_DSN,
    max: env.POSTGRES_POOL_MAX,
    ssl: env.POSTGRES_SSL,
    schema: env.POSTGRES_SCHEMA,
  });
}
