import path from 'node:path';
import type { Pool } from 'pg';
import { projectRoot } from '../config/paths';
import { migrate } from '../db/migrate';

/**
 * The identity service's SQL files, read from the checkout (the same path from sources and from dist/, so
 * the build needs no copy step).
 */
export function authMigrationsDir(): string {
  return path.join(projectRoot(), 'auth', 'migrations');
}

/** Applies the identity migrations into `schema` (DATABASE_SCHEMA) under db/migrate.ts's advisory lock. */
export function migrateIdentity(pool: Pool, schema: string): Promise<string[]> {
  return migrate(pool, schema, authMigrationsDir());
}
