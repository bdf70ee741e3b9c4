import type { Pool } from 'pg';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import type { Teardown } from './run-bench';

/**
 * A pool on a freshly migrated schema of its own, both on `teardown`: the schema is dropped before the pool ends, so a
 * run leaves nothing behind in the database it measured.
 */
export async function throwawaySchema(teardown: Teardown, dsn: string, schema: string, max: number): Promise<Pool> {
  const pool = createPool({ dsn, max, ssl: false, schema });
  teardown.push('pool', () => pool.end());
  teardown.push('schema', () => pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  await migrate(pool, schema);
  return pool;
}
