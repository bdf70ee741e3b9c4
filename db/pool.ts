import { Pool, type QueryConfig } from 'pg';
import type { PostgresEnv } from './config';

/**
 * How long PostgreSQL lets one statement run before it cancels it (`statement_timeout`), unless the pool is given
 * another bound: long enough for any query a request or an activity makes on a loaded machine, short enough that a
 * request on a stuck server answers 503 rather than holding its client until the load balancer gives up.
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;

/**
 * How much longer than `statement_timeout` the client waits for an answer (node-postgres' `query_timeout`) before it
 * gives up on the connection itself. A server that is up cancels a slow statement first and says so (SQLSTATE 57014);
 * a silent one (packets dropped, no reset: a partition, a frozen host) never answers, and only this ends the wait.
 */
export const QUERY_TIMEOUT_GRACE_MS = 2_000;

/**
 * The bound of a statement that may legitimately run long, a migration or an index build, in place of the pool's:
 * 30 minutes, on the server and in the client alike (a silent server still ends it).
 */
export const LONG_STATEMENT_TIMEOUT_MS = 30 * 60_000;

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
  /**
   * PostgreSQL's `statement_timeout` for every connection of the pool; the client gives up QUERY_TIMEOUT_GRACE_MS
   * later on a server that does not answer at all. Default DEFAULT_STATEMENT_TIMEOUT_MS.
   */
  statementTimeoutMs?: number;
  /** The name each connection gives PostgreSQL (pg_stat_activity.application_name): whose connections these are. */
  applicationName?: string;
}

/**
 * Creates the process's one pool. Every connection's search_path is the Keel schema, so SQL stays
 * unqualified and a test can own a schema of its own. Embedded PGlite serves one session (it sets
 * its search path itself), so the stack passes `max: 1` and every component queues on it.
 */
export function createPool(options: PoolOptions): Pool {
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new Pool({
    connectionString: options.dsn,
    max: options.max,
    ssl: options.ssl ? { rejectUnauthorized: true } : undefined,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    application_name: options.applicationName,
    // Both bounds, so neither a stuck server nor a silent one holds a request for longer (docs/failure-modes.md).
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + QUERY_TIMEOUT_GRACE_MS,
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
    statementTimeoutMs: env.POSTGRES_STATEMENT_TIMEOUT_MS,
  });
}

/** A query with its own client-side bound (node-postgres reads `query_timeout` per query; its types omit it). */
export type BoundedQuery = QueryConfig & { query_timeout: number };

/** Raises the server's bound to LONG_STATEMENT_TIMEOUT_MS for the rest of the current transaction. */
export const LONG_STATEMENT_SETTING = `SET LOCAL statement_timeout = ${LONG_STATEMENT_TIMEOUT_MS}`;

/** `text` with the client's bound raised to LONG_STATEMENT_TIMEOUT_MS for this query only. */
export function longQuery(text: string, values?: unknown[]): BoundedQuery {
  return { text, values, query_timeout: LONG_STATEMENT_TIMEOUT_MS + QUERY_TIMEOUT_GRACE_MS };
}

/**
 * `text` (statements without parameters) under LONG_STATEMENT_TIMEOUT_MS in place of the pool's bound, on the server
 * and in the client: the statements run as one implicit transaction (or in the caller's), which the raised
 * statement_timeout lasts.
 */
export function longStatement(text: string): BoundedQuery {
  return longQuery(`${LONG_STATEMENT_SETTING};\n${text}`);
}
