import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'pg';
import { migrate } from '../../db/migrate';
import { createPool } from '../../db/pool';
import { testPostgresDsn, testRedisUrl, uniqueSuffix } from './env';
import { startPgliteServer, type PgliteServer } from './pglite';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');
const MIGRATORS = 4;

/** Every migration file Keel ships, in order. */
async function shippedMigrations(): Promise<string[]> {
  return (await fs.readdir(path.join(ROOT, 'db', 'migrations'))).filter((name) => name.endsWith('.sql')).sort();
}

/**
 * `MIGRATORS` processes' worth of start-ups at once: each its own pool of one connection (a session each on
 * PostgreSQL; on PGlite, connections that all share its one session) migrating the same fresh schema.
 */
async function migrateConcurrently(dsn: string, schema: string) {
  const pools = Array.from({ length: MIGRATORS }, () => createPool({ dsn, max: 1, ssl: false, schema }));
  try {
    const results = await Promise.allSettled(pools.map((pool) => migrate(pool, schema)));
    const { rows } = await pools[0]!.query<{ name: string }>(
      `SELECT name FROM "${schema}".schema_migrations ORDER BY name`,
    );
    return { results, recorded: rows.map((r) => r.name) };
  } finally {
    await Promise.all(pools.map((pool) => pool.end()));
  }
}

function expectEachAppliedOnce(outcome: Awaited<ReturnType<typeof migrateConcurrently>>, files: string[]): void {
  const failures = outcome.results.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
  expect(failures).toEqual([]);
  const applied = outcome.results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  expect(applied.sort()).toEqual(files);
  expect(outcome.recorded).toEqual(files);
}

describe('migrations run by several processes at once', () => {
  it('on PostgreSQL: every migrator succeeds and each migration is applied once', async () => {
    const schema = `t_${uniqueSuffix()}`;
    const admin = new Pool({ connectionString: testPostgresDsn, max: 1 });
    try {
      expectEachAppliedOnce(await migrateConcurrently(testPostgresDsn, schema), await shippedMigrations());
      // The tables the migrations made are there once: a later start applies nothing.
      const again = createPool({ dsn: testPostgresDsn, max: 1, ssl: false, schema });
      await expect(migrate(again, schema)).resolves.toEqual([]);
      await again.end();
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  });

  describe('on an embedded PGlite, whose one session makes every lock re-entrant', () => {
    let dataDir: string;
    let pglite: PgliteServer;

    beforeAll(async () => {
      dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-migrate-pglite-'));
      pglite = await startPgliteServer(dataDir, 'keel');
    });

    afterAll(async () => {
      await pglite?.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    });

    it('every migrator succeeds and each migration is applied once', async () => {
      const schema = `m_${uniqueSuffix()}`;
      expectEachAppliedOnce(await migrateConcurrently(pglite.dsn, schema), await shippedMigrations());
    });

    it("leaves the session's own search path as it was", async () => {
      const schema = `m_${uniqueSuffix()}`;
      const pool = createPool({ dsn: pglite.dsn, max: 1, ssl: false, schema });
      try {
        await migrate(pool, schema);
        const { rows } = await pool.query<{ search_path: string }>('SHOW search_path');
        expect(rows[0]!.search_path).toBe('keel, public');
      } finally {
        await pool.end();
      }
    });
  });
});

describe('a worker that cannot start', () => {
  it('says why on stderr, naming itself, and exits 1', async () => {
    // A knowledge index whose schema holds a table the first migration would create: the start-up migration fails.
    const schema = `t_${uniqueSuffix()}`;
    const admin = new Pool({ connectionString: testPostgresDsn, max: 1 });
    await admin.query(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".projects (slug int)`);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-worker-start-'));
    try {
      const start = run(
        process.execPath,
        [path.join(__dirname, 'ts-entry.js'), path.join(ROOT, 'stack', 'worker-main.ts')],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            POSTGRES_DSN: testPostgresDsn,
            POSTGRES_SCHEMA: schema,
            KB_INDEX_DSN: testPostgresDsn,
            REDIS_URL: testRedisUrl,
            // Never reached: the worker stops before it connects to Temporal.
            TEMPORAL_ADDRESS: '127.0.0.1:9',
            DATA_DIR: dataDir,
          },
        },
      );
      await expect(start).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(
          /^keel worker stopped: migration 0001_init\.sql failed: relation "projects" already exists$/m,
        ) as unknown,
      });
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
