import { Client as PgClient, type Pool } from 'pg';
import { migrateIdentity } from '../../auth/migrate';
import { identityTables, type IdentityTables } from '../../db/qualified-tables';
import { createTestPool, testPostgresDsn, uniqueSuffix } from './env';

/**
 * The shared secret of the identity service and the ingest API when each keeps its own database (identity's
 * INTERNAL_API_TOKEN, the API's IDENTITY_INTERNAL_TOKEN).
 */
export const INTERNAL_TOKEN = 'internal-token-of-at-least-thirty-two-characters';

/** The identity service's own database, as the Helm chart deploys it: the ingest pool cannot reach it. */
export interface IdentityDatabase {
  dsn: string;
  schema: string;
  pool: Pool;
  tables: IdentityTables;
  drop(): Promise<void>;
}

async function asAdmin(sql: string): Promise<void> {
  const client = new PgClient({ connectionString: testPostgresDsn });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createIdentityDatabase(): Promise<IdentityDatabase> {
  const name = `keel_identity_${uniqueSuffix()}`;
  const dsn = testPostgresDsn.replace(/\/[^/]*$/, `/${name}`);
  const schema = 'identity';
  await asAdmin(`CREATE DATABASE "${name}"`);
  const pool = createTestPool(schema, { dsn, max: 5 });
  try {
    await migrateIdentity(pool, schema);
  } catch (err) {
    await pool.end();
    await asAdmin(`DROP DATABASE IF EXISTS "${name}"`);
    throw err;
  }
  return {
    dsn,
    schema,
    pool,
    tables: identityTables(schema),
    async drop() {
      await pool.end();
      await asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
