import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';

/** The ingest service's PostgreSQL settings, shared by every process that touches its database. */
export const postgresEnv = z.object({
  /** Unset under `npm start` → the embedded PGlite database under DATA_DIR. */
  POSTGRES_DSN: z.preprocess(emptyAsUndefined, z.url().optional()),
  POSTGRES_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * PostgreSQL's statement_timeout for every pooled connection, in ms; the client gives up on a server that does not
   * answer 2 s later (db/pool.ts). Migrations and index builds take 30 minutes of their own.
   */
  POSTGRES_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  /** `true` for managed databases that require TLS (certificates verified by Node's CA store). */
  POSTGRES_SSL: z.preprocess(emptyAsUndefined, z.stringbool().default(false)),
  /** Keel's tables live in this schema, so identity and ingest can share one small database. */
  POSTGRES_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'a lowercase SQL identifier such as keel')
    .default('keel'),
});
export type PostgresEnv = z.infer<typeof postgresEnv>;
