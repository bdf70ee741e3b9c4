import type { Pool, PoolClient, QueryResult } from 'pg';

/**
 * Runs `fn` in one transaction on one client; rolls back and rethrows on any error. `begin` may append constant
 * statements (SET LOCAL …, a SELECT) to the BEGIN, sent in the same round trip; `fn` gets their results, BEGIN's
 * first.
 */
export async function withTransaction<T>(
  pool: Pool,
  fn: (client: PoolClient, began: QueryResult[]) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  try {
    // Several statements in one simple query answer an array of results, one answers a single result.
    const began: QueryResult | QueryResult[] = await client.query(begin);
    const result = await fn(client, Array.isArray(began) ? began : [began]);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
