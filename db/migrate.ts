import fs from 'node:fs/promises';
import path from 'node:path';
import type { Pool, PoolClient } from 'pg';
import { LONG_STATEMENT_SETTING, longQuery } from './pool';

const MIGRATIONS_DIR = path.join(__dirname, 'migrations');

/**
 * Applies the ordered SQL files in `dir` that this schema has not seen, each in a transaction of its own that also
 * records it in schema_migrations, and returns the names this call applied. Safe for several processes at once, on
 * PostgreSQL and on an embedded PGlite alike: each step runs in a transaction that first takes the schema's
 * transaction-level advisory lock, then re-reads whether its file is applied, so a file a racing process applied in
 * the meantime is skipped rather than run twice.
 *
 * The lock excludes other sessions on PostgreSQL. PGlite serves a single session to all its clients, so no lock
 * excludes anyone there (an advisory lock is re-entrant within a session); its wire server instead runs an open
 * transaction's queries alone until it ends, which is what makes the re-check and the apply one step there. Hence
 * the re-check must sit inside the transaction, never before it.
 */
export async function migrate(pool: Pool, schema: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await fs.readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await lockedStep(client, schema, async () => {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS "${schema}".schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
    });
    // A read outside the lock only saves taking it for files long applied; what it misses is caught by the re-check.
    const seen = await appliedNames(client, schema);
    for (const name of files) {
      if (seen.has(name)) continue;
      const sql = await fs.readFile(path.join(dir, name), 'utf8');
      const ran = await lockedStep(client, schema, async () => {
        const { rowCount } = await client.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name]);
        if (rowCount) return false;
        try {
          await client.query(longQuery(sql));
        } catch (err) {
          throw new Error(`migration ${name} failed: ${(err as Error).message}`, { cause: err });
        }
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
        return true;
      });
      if (ran) applied.push(name);
    }
  } finally {
    client.release();
  }
  return applied;
}

/**
 * Runs `step` in a transaction holding the schema's migration lock, with the schema first on the search path for this
 * transaction only: a shared connection (the embedded database's one session) goes on resolving
 * its own schema afterwards.
 */
async function lockedStep<T>(client: PoolClient, schema: string, step: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    // A migration may rewrite a large table, and a racing process waits on the lock for as long: both take the long
    // bound, not the pool's (db/pool.ts).
    await client.query(LONG_STATEMENT_SETTING);
    await client.query(longQuery('SELECT pg_advisory_xact_lock(hashtext($1))', [`keel-migrate:${schema}`]));
    await client.query(`SET LOCAL search_path TO "${schema}", public`);
    const result = await step();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function appliedNames(client: PoolClient, schema: string): Promise<Set<string>> {
  const { rows } = await client.query<{ name: string }>(`SELECT name FROM "${schema}".schema_migrations`);
  return new Set(rows.map((r) => r.name));
}
