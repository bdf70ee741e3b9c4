import type { Pool, PoolClient } from 'pg';

/**
 * Runs `fn` in one transaction on one client; rolls back and rethrows on any error. `begin` may append constant
 * statements (SET LOCAL …) to the BEGIN, sent in the same round trip.
 */
export async function withTransaction<T>(
  pool: Pool,
  fn: (client: PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
