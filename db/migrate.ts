import fs from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';

const MIGRATIONS_DIR = path.join(__dirname, 'migrations');

/**
 * Applies the ordered SQL files in db/migrations that this schema has not seen, each in its own
 * transaction, under a session advisory lock so concurrent starts apply each file exactly once.
 * Returns the names applied by this call.
 */
export async function migrate(pool: Pool, schema: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await fs.readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  const client = await pool.connect();
  const applied: string[] = [];
  let previousSearchPath: string | undefined;
  try {
    // The connection's own search_path (the pool's), restored afterwards: a shared pool (one connection for the
    // embedded database) must go on resolving its own schema, not the one just migrated.
    previousSearchPath = (await client.query<{ search_path: string }>('SHOW search_path')).rows[0]?.search_path;
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`keel-migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(`SET search_path TO "${schema}", public`);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    );
    for (const name of files) {
      if (done.has(name)) continue;
      const sql = await fs.readFile(path.join(dir, name), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${name} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(name);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`keel-migrate:${schema}`]).catch(() => undefined);
    if (previousSearchPath) await client.query(`SET search_path TO ${previousSearchPath}`).catch(() => undefined);
    client.release();
  }
  return applied;
}
