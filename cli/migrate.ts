import { z } from 'zod';
import { migrateIdentity } from '../auth/migrate';
import { emptyAsUndefined, parseEnv } from '../config/parse-env';
import { postgresEnv } from '../db/config';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { registerConsoleToken } from '../stack/console';

const sqlIdentifier = z.string().regex(/^[a-z_][a-z0-9_]*$/, 'a lowercase SQL identifier such as identity');

export const migrateEnv = z.object({
  ...postgresEnv.shape,
  POSTGRES_DSN: z.url({ error: 'required: the ingest database, postgres://user@host/db' }),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  DATABASE_SCHEMA: sqlIdentifier.default('identity'),
  DATABASE_SSL: z.preprocess(emptyAsUndefined, z.stringbool().default(false)),
  CONSOLE_API_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(32, 'at least 32 characters').optional()),
});

/** `keel migrate`: what a release applies before its processes start (the Helm chart's pre-upgrade job). */
export async function runMigrateCommand(env: NodeJS.ProcessEnv): Promise<number> {
  const config = parseEnv(migrateEnv, env, 'keel migrate');
  const ingest = createPool({
    dsn: config.POSTGRES_DSN,
    max: 1,
    ssl: config.POSTGRES_SSL,
    schema: config.POSTGRES_SCHEMA,
  });
  try {
    const applied = await migrate(ingest, config.POSTGRES_SCHEMA);
    console.log(`ingest schema ${config.POSTGRES_SCHEMA}: ${describe(applied)}`);
    if (config.CONSOLE_API_TOKEN) {
      await registerConsoleToken(ingest, config.CONSOLE_API_TOKEN);
      console.log('console token registered');
    }
  } finally {
    await ingest.end();
  }
  if (config.DATABASE_URL) {
    const identity = createPool({
      dsn: config.DATABASE_URL,
      max: 1,
      ssl: config.DATABASE_SSL,
      schema: config.DATABASE_SCHEMA,
    });
    try {
      console.log(
        `identity schema ${config.DATABASE_SCHEMA}: ${describe(await migrateIdentity(identity, config.DATABASE_SCHEMA))}`,
      );
    } finally {
      await identity.end();
    }
  }
  return 0;
}

function describe(applied: string[]): string {
  return applied.length === 0 ? 'up to date' : `applied ${applied.join(', ')}`;
}
