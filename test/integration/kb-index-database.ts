import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { z } from 'zod';
import { testPostgresDsn } from './env';
import { startPgliteServer } from './pglite';

/**
 * Where the suite's knowledge index lives: `postgres` — in the test PostgreSQL beside the test's other tables, which
 * needs pgvector there; `pglite` — in an embedded PGlite (which ships pgvector) that each hub-owning test file starts
 * and reaches as KB_INDEX_DSN, the configuration a deployment uses when its PostgreSQL lacks the extension. Chosen
 * once per run by the jest global set-up (test/global-setup.ts); TEST_KB_INDEX set by hand forces either.
 */
export const KB_INDEX_KINDS = ['postgres', 'pglite'] as const;
export type KbIndexKind = (typeof KB_INDEX_KINDS)[number];

const kindSchema = z.enum(KB_INDEX_KINDS, {
  error: () => `TEST_KB_INDEX must be one of ${KB_INDEX_KINDS.join(', ')}`,
});

/** `postgres` when the test PostgreSQL offers pgvector, else `pglite`. */
export async function detectKbIndexKind(dsn = testPostgresDsn): Promise<KbIndexKind> {
  const client = new Client({ connectionString: dsn });
  await client.connect();
  try {
    const { rowCount } = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
    return rowCount ? 'postgres' : 'pglite';
  } finally {
    await client.end();
  }
}

/** The kind the global set-up chose (or TEST_KB_INDEX names); a file run outside jest's set-up detects it itself. */
export async function kbIndexKind(): Promise<KbIndexKind> {
  const chosen = process.env.TEST_KB_INDEX;
  if (chosen) return kindSchema.parse(chosen);
  return detectKbIndexKind();
}

export interface TestKbIndex {
  kind: KbIndexKind;
  /** The knowledge-hub variables that point a hub (in this process or a child) at the index; empty for `postgres`. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The index database of a test file whose schema is `schema`. For `pglite`, an embedded PGlite of the file's own on a
 * loopback port (./pglite.ts), with the search path on `schema`
 * (PGlite serves one session and ignores per-connection settings) and a pool of one connection per hub, as the
 * embedded stack runs it.
 */
export async function openTestKbIndex(schema: string): Promise<TestKbIndex> {
  const kind = await kbIndexKind();
  if (kind === 'postgres') return { kind, env: {}, close: () => Promise.resolve() };
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-kb-index-'));
  const server = await startPgliteServer(dataDir, schema).catch(async (err: unknown) => {
    await fs.rm(dataDir, { recursive: true, force: true });
    throw err;
  });
  return {
    kind,
    env: { KB_INDEX_DSN: server.dsn, KB_INDEX_POOL_MAX: '1' },
    async close() {
      await server.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
