import { z } from 'zod';
import { migrateIdentity } from '../auth/migrate';
import { configError, emptyAsUndefined, parseEnv } from '../config/parse-env';
import { postgresEnv } from '../db/config';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { readConsoleToken } from '../console/server/config';
import { secretsConfig } from '../secrets/config';
import { SecretIdSchema } from '../secrets/id';
import { createSecretStore } from '../secrets/store';
import { registerConsoleToken } from '../stack/console';
import { consoleOrgId } from '../stack/console-org';

/** The console's token as `keel migrate` registers it, whether from its variable or its store file. */
const consoleTokenRule = z.string().min(32, 'at least 32 characters');

const sqlIdentifier = z.string().regex(/^[a-z_][a-z0-9_]*$/, 'a lowercase SQL identifier such as identity');

export const migrateEnv = z.object({
  ...postgresEnv.shape,
  POSTGRES_DSN: z.url({ error: 'required: the ingest database, postgres://user@host/db' }),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  DATABASE_SCHEMA: sqlIdentifier.default('identity'),
  DATABASE_SSL: z.preprocess(emptyAsUndefined, z.stringbool().default(false)),
  /**
   * The console's token to register, by the rule of every deployment secret: this variable or the store's file
   * (CONSOLE_API_TOKEN_SECRET_ID, default CONSOLE_API_TOKEN; docs/secrets.md), the variable winning. Neither: none.
   */
  CONSOLE_API_TOKEN: z.preprocess(emptyAsUndefined, consoleTokenRule.optional()),
  CONSOLE_API_TOKEN_SECRET_ID: z.preprocess(emptyAsUndefined, SecretIdSchema.optional()),
  /** The org the console's token is registered in (one console per org; docs/console.md). */
  CONSOLE_ORG_ID: consoleOrgId,
});

/**
 * Everything `keel migrate` reads of its environment, the secrets store included (the console's token may be a file of
 * it); the deployment checks run this to hold a manifest to what the command reads.
 */
export async function loadMigrateConfig(env: NodeJS.ProcessEnv) {
  const config = parseEnv(migrateEnv, env, 'keel migrate');
  const store = createSecretStore(parseEnv(secretsConfig, env, 'keel migrate'));
  const consoleToken = await readConsoleToken(config, store, false, consoleTokenRule);
  if (consoleToken.problems.length > 0) throw configError('keel migrate', consoleToken.problems);
  return { config, consoleToken };
}

/** `keel migrate`: what a release applies before its processes start (the Helm chart's pre-upgrade job). */
export async function runMigrateCommand(env: NodeJS.ProcessEnv): Promise<number> {
  const { config, consoleToken } = await loadMigrateConfig(env);
  for (const warning of consoleToken.warnings) console.warn(`keel migrate: ${warning.message}`);
  const ingest = createPool({
    dsn: config.POSTGRES_DSN,
    max: 1,
    ssl: config.POSTGRES_SSL,
    schema: config.POSTGRES_SCHEMA,
    statementTimeoutMs: config.POSTGRES_STATEMENT_TIMEOUT_MS,
  });
  try {
    const applied = await migrate(ingest, config.POSTGRES_SCHEMA);
    console.log(`ingest schema ${config.POSTGRES_SCHEMA}: ${describe(applied)}`);
    if (consoleToken.token) {
      await registerConsoleToken(ingest, config.CONSOLE_ORG_ID, consoleToken.token);
      console.log(`console token registered (org ${config.CONSOLE_ORG_ID})`);
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
