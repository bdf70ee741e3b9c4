import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { buildApp } from '../../api/app';
import type { ApiDeps } from '../../api/deps';
import { createIdAllocator } from '../../db/ids';
import { createToken } from '../../db/tokens';
import { setClearance } from '../../kb/clearance';
import { kbEnv } from '../../kb/config';
import type { Embedder } from '../../kb/embedders/types';
import { openKnowledgeHub, type KnowledgeHub } from '../../kb/hub';
import type { Sensitivity } from '../../kb/sensitivity';
import { TEST_CONNECT_TIMEOUT_MS } from './env';
import { createTestDatabase, createTestQueue, type TestDatabase } from './harness';
import { openTestKbIndex } from './kb-index-database';

/**
 * A hub of the test file's own: a migrated schema in the real PostgreSQL, the index database the run chose
 * (kb-index-database.ts) and a temporary hub directory.
 */
export interface KbFixture {
  db: TestDatabase;
  hub: KnowledgeHub;
  hubDir: string;
  /** The pool holding the index tables (kb_documents, kb_chunks): `db.pool`, or the KB_INDEX_DSN database's. */
  index: KnowledgeHub['pool'];
  /** The variables that point another process's hub at the same index (KB_INDEX_DSN when it is separate). */
  indexEnv: Record<string, string>;
  /** Writes a hub file directly (as a connector would), without indexing it. */
  put(hubPath: string, content: string): Promise<void>;
  remove(hubPath: string): Promise<void>;
  /** Another hub over the same database and directory with another embedder (the re-embed guard's view). */
  reopen(embedder: Embedder): Promise<KnowledgeHub>;
  close(): Promise<void>;
}

export async function createKbFixture(env: NodeJS.ProcessEnv = {}): Promise<KbFixture> {
  const db = await createTestDatabase();
  const indexDb = await openTestKbIndex(db.schema);
  const hubDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-hub-'));
  const parsed = kbEnv.parse({ ...indexDb.env, ...env });
  const open = (embedder?: Embedder) =>
    openKnowledgeHub({
      pool: db.pool,
      schema: db.schema,
      hubDir,
      env: parsed,
      embedder,
      connectTimeoutMs: TEST_CONNECT_TIMEOUT_MS,
    });
  const hub = await open();
  const reopened: KnowledgeHub[] = [];
  return {
    db,
    hub,
    hubDir,
    index: hub.pool,
    indexEnv: indexDb.env,
    async put(hubPath, content) {
      const file = path.join(hubDir, ...hubPath.split('/'));
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, content);
    },
    async remove(hubPath) {
      await fs.rm(path.join(hubDir, ...hubPath.split('/')));
    },
    async reopen(embedder) {
      const other = await open(embedder);
      reopened.push(other);
      return other;
    },
    async close() {
      for (const other of reopened) await other.close();
      await hub.close();
      await indexDb.close();
      await db.drop();
      await fs.rm(hubDir, { recursive: true, force: true });
    },
  };
}

/** The union of the KB and atlas response bodies, as the tests read them (each response fills its own fields). */
export interface ApiJson {
  error: { code: string; message: string };
  results: { kh_id: string; path: string; snippet: string; score: number; sensitivity: string }[];
  embedder: { provider: string; model: string; dims: number };
  kh_id: string;
  path: string;
  content: string;
  content_hash: string;
  markdown: string;
  frontmatter: Record<string, unknown>;
  status: string;
  chunks: number;
  sources: { source: string; documents: number; chunks: number }[];
  tags: { tag: string; documents: number }[];
  documents: { kh_id: string; path: string }[];
  next_cursor: string | null;
  document: Record<string, unknown>;
  neighbours: { kh_id: string }[];
  links: { outgoing: unknown[]; incoming: unknown[] };
}

/** A hub document's text with the given frontmatter fields. */
export function hubDoc(fields: Record<string, unknown>, body: string): string {
  const yaml = Object.entries(fields)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join('\n');
  return `---\n${yaml}\n---\n${body}`;
}

/** The real ingest API over the fixture's hub, listening on loopback, without Temporal (KB routes never start jobs). */
export async function startKbApi(kb: KbFixture, options: { withHub?: boolean } = {}) {
  const queue = await createTestQueue();
  const deps: ApiDeps = {
    pool: kb.db.pool,
    queue,
    // A lazy client: it would connect on first use, and no KB route uses it.
    temporal: new Client(),
    ids: createIdAllocator({ pool: kb.db.pool, queue }),
    taskQueue: 'unused',
    models: { list: () => Promise.resolve([]) },
    rateLimits: { userPerMinute: 10_000, orgPerMinute: 10_000 },
    workspaceRoot: kb.hubDir,
    heartbeatMs: 15_000,
    streamPollMs: 1_000,
    kb: options.withHub === false ? undefined : kb.hub,
  };
  const app = await buildApp(deps, { logger: false });
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  /** A token of org `acme` with the given hub clearance (admin: no clearance set, reads everything). */
  const token = async (clearance: Sensitivity | 'admin') => {
    const created = await createToken(kb.db.pool, {
      userId: `user-${clearance}`,
      orgId: 'acme',
      isAdmin: clearance === 'admin',
    });
    if (clearance !== 'admin') await setClearance(kb.db.pool, created.tokenId, clearance);
    return created.token;
  };
  return {
    baseUrl,
    token,
    async call(token: string, method: string, url: string, body?: unknown) {
      const response = await fetch(`${baseUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as ApiJson };
    },
    async close() {
      await app.close();
      await queue.close();
    },
  };
}
