import type { Pool } from 'pg';
import type { KnowledgeHub } from '../kb/hub';
import { openHub } from '../kb/open-hub';
import type { CliEnv, KbCommandConfig } from './config';

/** How a CLI command reaches the database (`keel` opens the configured one; tests hand in their own). */
export type OpenDatabase = (env: CliEnv) => Promise<{ pool: Pool; close(): Promise<void> }>;

/**
 * Runs `use` on the knowledge hub over the CLI's database and closes both after it, whatever it does. `prepare` runs on
 * the database before the hub opens (a connector run migrates first).
 */
export async function withHub<T>(
  config: KbCommandConfig,
  openDatabase: OpenDatabase,
  use: (opened: { hub: KnowledgeHub; warning: string | undefined; pool: Pool }) => Promise<T>,
  prepare?: (pool: Pool) => Promise<unknown>,
): Promise<T> {
  const { cli: env } = config;
  const database = await openDatabase(env);
  try {
    if (prepare) await prepare(database.pool);
    const { hub, warning } = await openHub({
      config: config.kb,
      pool: database.pool,
      schema: env.POSTGRES_SCHEMA,
      dataDir: env.DATA_DIR,
      postgresSsl: env.POSTGRES_SSL,
    });
    try {
      return await use({ hub, warning, pool: database.pool });
    } finally {
      await hub.close();
    }
  } finally {
    await database.close();
  }
}
