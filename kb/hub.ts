import fs from 'node:fs';
import type { Pool, PoolClient } from 'pg';
import { migrate } from '../db/migrate';
import { createPool, longStatement } from '../db/pool';
import type { KbEnv } from './config';
import { createEmbedder } from './embedders/create';
import { describeIdentity, type Embedder, type EmbedderIdentity } from './embedders/types';
import { KbUnavailableError, ReembedRequiredError } from './errors';

/** pgvector's HNSW index takes at most this many dimensions for the `vector` type. */
export const HNSW_MAX_DIMS = 2000;

/** The knowledge hub of one Keel: its working directory, the database holding its index, and its embedder. */
export interface KnowledgeHub {
  readonly hubDir: string;
  /** The pool of the database holding the index (POSTGRES_DSN's, or KB_INDEX_DSN's). */
  readonly pool: Pool;
  readonly embedder: Embedder;
  /** Why the hub cannot serve (no pgvector), or undefined. */
  readonly unavailable: string | undefined;
  /**
   * The embedder identity every vector must have, after checking the index can serve it: throws
   * KbUnavailableError without pgvector and ReembedRequiredError when the stored vectors are another embedder's.
   * Creates the HNSW index for the identity's dimensions on first use.
   */
  ready(): Promise<EmbedderIdentity>;
  close(): Promise<void>;
}

export interface OpenHubOptions {
  /** The ingest database's pool; the index lives there unless KB_INDEX_DSN names another database. */
  pool: Pool;
  schema: string;
  hubDir: string;
  env: KbEnv;
  /** Overrides the embedder EMBEDDING_PROVIDER selects (tests, benchmarks). */
  embedder?: Embedder;
  postgresSsl?: boolean;
  /** The KB_INDEX_DSN pool's wait for a connection (db/pool.ts); the pool's default unless given. */
  connectTimeoutMs?: number;
}

/**
 * Opens the hub: the index database (migrated when it is KB_INDEX_DSN's), the pgvector extension, the hub directory.
 * Never throws for a missing extension: the hub then reports `unavailable` with what to install, so the rest of
 * Keel still starts and KB requests answer 503 with that message.
 */
export async function openKnowledgeHub(options: OpenHubOptions): Promise<KnowledgeHub> {
  let pool = options.pool;
  let ownPool: Pool | undefined;
  if (options.env.KB_INDEX_DSN) {
    ownPool = createPool({
      dsn: options.env.KB_INDEX_DSN,
      max: options.env.KB_INDEX_POOL_MAX,
      ssl: options.postgresSsl ?? false,
      schema: options.schema,
      connectTimeoutMs: options.connectTimeoutMs,
    });
    pool = ownPool;
    await migrate(pool, options.schema);
  }
  fs.mkdirSync(options.hubDir, { recursive: true });
  const unavailable = await ensureVectorExtension(pool, Boolean(options.env.KB_INDEX_DSN));
  return createHub({
    pool,
    hubDir: options.hubDir,
    embedder: options.embedder ?? createEmbedder(options.env),
    unavailable,
    ownPool,
  });
}

export function createHub(parts: {
  pool: Pool;
  hubDir: string;
  embedder: Embedder;
  unavailable?: string;
  ownPool?: Pool;
}): KnowledgeHub {
  const indexedDims = new Set<number>();
  return {
    hubDir: parts.hubDir,
    pool: parts.pool,
    embedder: parts.embedder,
    unavailable: parts.unavailable,
    async ready() {
      if (parts.unavailable) throw new KbUnavailableError(parts.unavailable);
      const identity = await parts.embedder.identity();
      await checkEmbedder(parts.pool, identity);
      if (!indexedDims.has(identity.dims)) {
        await ensureHnswIndex(parts.pool, identity.dims);
        indexedDims.add(identity.dims);
      }
      return identity;
    },
    async close() {
      await parts.ownPool?.end();
    },
  };
}

/** Undefined when pgvector is installed (creating it if the server has it); otherwise what to do about it. */
async function ensureVectorExtension(pool: Pool, separate: boolean): Promise<string | undefined> {
  const { rows } = await pool.query<{ installed: string | null; available: boolean; server: string }>(
    `SELECT (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS installed,
            EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available,
            current_setting('server_version_num') AS server`,
  );
  const row = rows[0]!;
  if (row.installed) return undefined;
  const major = Math.floor(Number(row.server) / 10000);
  const where = separate ? 'KB_INDEX_DSN' : 'POSTGRES_DSN';
  if (!row.available) {
    return (
      `the knowledge index needs the pgvector extension, which the PostgreSQL ${major} server at ${where} lacks: ` +
      `install it on that server (Debian/Ubuntu: apt-get install postgresql-${major}-pgvector; elsewhere see ` +
      'https://github.com/pgvector/pgvector#installation) and restart Keel' +
      (separate ? '' : ', or set KB_INDEX_DSN to a PostgreSQL that has it')
    );
  }
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public');
    return undefined;
  } catch (err) {
    // Another process may have created it between the check and here.
    const again = await pool.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`);
    if (again.rowCount) return undefined;
    return `the knowledge index needs pgvector: CREATE EXTENSION vector failed at ${where} (${(err as Error).message}); have a superuser run it once in that database`;
  }
}

/**
 * The re-embed guard. The first embedder to index claims the index; another one is refused while any vector of the
 * claimed one remains (an empty index simply changes hands). `keel kb reembed` is what moves a full index over.
 */
async function checkEmbedder(pool: Pool, identity: EmbedderIdentity): Promise<void> {
  const read = () => pool.query<EmbedderIdentity>('SELECT provider, model, dims FROM kb_embedder');
  let { rows } = await read();
  if (rows.length === 0) {
    await pool.query(
      'INSERT INTO kb_embedder (provider, model, dims) VALUES ($1, $2, $3) ON CONFLICT (singleton) DO NOTHING',
      [identity.provider, identity.model, identity.dims],
    );
    ({ rows } = await read());
  }
  const stored = rows[0]!;
  if (sameIdentity(stored, identity)) return;
  const { rowCount } = await pool.query('SELECT 1 FROM kb_chunks LIMIT 1');
  if (rowCount) throw new ReembedRequiredError(describeIdentity(stored), describeIdentity(identity));
  await claimIndex(pool, identity);
}

/** Records `identity` as the embedder of every vector in the index (after a re-embed, or on an empty index). */
export async function claimIndex(pool: Pool | PoolClient, identity: EmbedderIdentity): Promise<void> {
  await pool.query(
    `INSERT INTO kb_embedder (provider, model, dims) VALUES ($1, $2, $3)
     ON CONFLICT (singleton) DO UPDATE SET provider = $1, model = $2, dims = $3, updated_at = now()`,
    [identity.provider, identity.model, identity.dims],
  );
}

export function sameIdentity(a: EmbedderIdentity, b: EmbedderIdentity): boolean {
  return a.provider === b.provider && a.model === b.model && a.dims === b.dims;
}

/**
 * The HNSW graph's build parameters (pgvector's defaults, kept after bench:kb-scale: docs/knowledge-hub.md, "Query
 * tuning"). They apply when the index is created; an existing index keeps the ones it was built with.
 */
export const HNSW_BUILD = { m: 16, efConstruction: 64 };

/** The HNSW (cosine) index over vectors of `dims` dimensions: an expression index, partial on those dimensions. */
export async function ensureHnswIndex(pool: Pool | PoolClient, dims: number, build = HNSW_BUILD): Promise<void> {
  if (!Number.isInteger(dims) || dims < 1 || dims > HNSW_MAX_DIMS) return;
  const { m, efConstruction } = build;
  if (!Number.isInteger(m) || !Number.isInteger(efConstruction)) throw new Error('HNSW parameters must be integers');
  // Building the graph over a large index takes minutes, beyond the pool's statement bound.
  await pool.query(
    longStatement(
      `CREATE INDEX IF NOT EXISTS kb_chunks_hnsw_${dims} ON kb_chunks
       USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WITH (m = ${m}, ef_construction = ${efConstruction})
       WHERE embedding_dims = ${dims}`,
    ),
  );
}
