import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import nodePath from 'node:path';
import type { PoolClient } from 'pg';
import { chunkMarkdown, type Chunk } from './chunker';
import { DocumentFormatError, parseHubDocument, type HubDocument } from './document-format';
import type { EmbedderIdentity } from './embedders/types';
import { hubFile, HubPathSchema, sourceOf } from './hub-path';
import type { KnowledgeHub } from './hub';
import { linkedFilePaths, readLinkedFiles, storeLinkedFiles, type LinkedFile } from './linked-files';
import { extractLinks, type DocumentLink } from './links';

/** What indexing did to one path. */
export type IndexResult =
  | { path: string; status: 'indexed'; kh_id: string; chunks: number; embedded: number }
  | { path: string; status: 'unchanged'; kh_id: string }
  | { path: string; status: 'deleted'; kh_id: string }
  | { path: string; status: 'absent' }
  | { path: string; status: 'invalid'; error: string };

export function sha256(text: string | Buffer): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

/** A hub file parsed and chunked, ready to be written to the index. */
export interface PreparedDocument {
  path: string;
  contentHash: string;
  document: HubDocument;
  chunks: Chunk[];
  links: DocumentLink[];
  /** Hub paths of the non-markdown files the body links to by a relative URL (stored with the document). */
  files: string[];
}

/** Parses and chunks a hub file's text; throws DocumentFormatError when it does not meet the hub's schema. */
export function prepareDocument(path: string, raw: string): PreparedDocument {
  const document = parseHubDocument(raw, path);
  const khId = document.frontmatter.id;
  return {
    path,
    contentHash: sha256(raw),
    document,
    chunks: chunkMarkdown(khId, document.body, document.bodyStartLine),
    links: extractLinks(path, document.body),
    files: linkedFilePaths(path, document.body),
  };
}

/**
 * The space documents are indexed into: an org id, or null for the shared space. Left out, a document already in the
 * index keeps its space and a new one lands in the shared space (the operator's curated hub: `keel kb index`).
 */
export interface IndexOptions {
  org?: string | null;
}

/**
 * The indexing interface connectors and KB edits use: brings the index in line with these paths of the hub
 * working directory. A path whose file exists is inserted or updated; one whose file is gone is deleted. Each
 * document is written in its own transaction, so a failure leaves every document either old or new, never half; and
 * the index holds the chunks when this returns. Idempotent by content hash: a file whose bytes the index already
 * has is skipped without a write, and unchanged chunks of a changed file keep their rows and vectors.
 * A path that is not a valid hub path, or a file that fails the frontmatter schema, is reported `invalid` and its
 * previous index entry (if any) is left as it was. Embedder and database failures throw.
 */
export async function indexPaths(
  hub: KnowledgeHub,
  paths: readonly string[],
  options: IndexOptions = {},
): Promise<IndexResult[]> {
  const identity = await hub.ready();
  const results: IndexResult[] = [];
  const client = await hub.pool.connect();
  try {
    for (const path of [...new Set(paths)]) {
      results.push(await indexOnePath(hub, client, identity, path, options));
    }
  } finally {
    client.release();
  }
  return results;
}

async function indexOnePath(
  hub: KnowledgeHub,
  client: PoolClient,
  identity: EmbedderIdentity,
  path: string,
  options: IndexOptions,
): Promise<IndexResult> {
  const valid = HubPathSchema.safeParse(path);
  if (!valid.success) return { path, status: 'invalid', error: `path: ${valid.error.issues[0]!.message}` };
  let raw: string;
  try {
    raw = await fs.readFile(hubFile(hub.hubDir, path), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    return deleteDocument(client, path);
  }
  let prepared: PreparedDocument;
  try {
    prepared = prepareDocument(path, raw);
  } catch (err) {
    if (err instanceof DocumentFormatError) return { path, status: 'invalid', error: err.message };
    throw err;
  }
  return writeDocument(hub, client, identity, prepared, { org: options.org });
}

async function deleteDocument(client: PoolClient, path: string): Promise<IndexResult> {
  const { rows } = await client.query<{ kh_id: string }>('DELETE FROM kb_documents WHERE path = $1 RETURNING kh_id', [
    path,
  ]);
  return rows[0] ? { path, status: 'deleted', kh_id: rows[0].kh_id } : { path, status: 'absent' };
}

/**
 * Writes one prepared document in a transaction on `client` (which must not be inside one), under an advisory lock
 * on its path. Vectors are computed before the transaction opens, for the chunks the index does not have yet.
 */
export async function writeDocument(
  hub: KnowledgeHub,
  client: PoolClient,
  identity: EmbedderIdentity,
  prepared: PreparedDocument,
  options: IndexOptions & {
    /** Under the path's lock, before the index changes: sees what the write replaces, and may refuse it. */
    beforeApply?: () => Promise<void>;
    /** Under the path's lock, after the index changed and before commit (a write's file goes here). */
    beforeCommit?: () => Promise<void>;
  } = {},
): Promise<IndexResult> {
  const { beforeCommit } = options;
  const khId = prepared.document.frontmatter.id;
  const known = await storedChunkIds(client, khId, identity);
  const current = await client.query<{ content_hash: string; kh_id: string; org_id: string | null }>(
    'SELECT content_hash, kh_id, org_id FROM kb_documents WHERE path = $1',
    [prepared.path],
  );
  const sameSpace = options.org === undefined || current.rows[0]?.org_id === options.org;
  const same = current.rows[0]?.content_hash === prepared.contentHash && current.rows[0]?.kh_id === khId && sameSpace;
  if (same && known.size === prepared.chunks.length && !beforeCommit && !options.beforeApply) {
    return { path: prepared.path, status: 'unchanged', kh_id: khId };
  }
  const missing = prepared.chunks.filter((chunk) => !known.has(chunk.chunkId));
  const vectors = new Map<string, number[]>();
  const embedded = await hub.embedder.embed(
    missing.map((chunk) => chunk.content),
    'document',
  );
  missing.forEach((chunk, i) => vectors.set(chunk.chunkId, embedded[i]!));
  const files = await readLinkedFiles(hub.hubDir, prepared.files);

  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`kb-path:${prepared.path}`]);
    if (options.beforeApply) await options.beforeApply();
    const result = await applyDocument(hub, client, identity, prepared, vectors, files, options.org);
    if (result.status === 'invalid') {
      await client.query('ROLLBACK');
      return result;
    }
    if (beforeCommit) await beforeCommit();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

async function storedChunkIds(client: PoolClient, khId: string, identity: EmbedderIdentity): Promise<Set<string>> {
  const { rows } = await client.query<{ chunk_id: string }>(
    'SELECT chunk_id FROM kb_chunks WHERE kh_id = $1 AND embedding_model = $2 AND embedding_dims = $3',
    [khId, identity.model, identity.dims],
  );
  return new Set(rows.map((r) => r.chunk_id));
}

async function applyDocument(
  hub: KnowledgeHub,
  client: PoolClient,
  identity: EmbedderIdentity,
  prepared: PreparedDocument,
  vectors: Map<string, number[]>,
  files: readonly LinkedFile[],
  org: string | null | undefined,
): Promise<IndexResult> {
  const { document, path } = prepared;
  const fm = document.frontmatter;
  const khId = fm.id;

  const holder = await client.query<{ path: string; org_id: string | null }>(
    'SELECT path, org_id FROM kb_documents WHERE kh_id = $1',
    [khId],
  );
  const previousPath = holder.rows[0]?.path;
  if (previousPath && previousPath !== path && org !== undefined && holder.rows[0]!.org_id !== org) {
    // Another space's document: not even its path is told.
    return { path, status: 'invalid', error: `id ${khId} belongs to another document` };
  }
  if (previousPath && previousPath !== path) {
    // The same id at a new path is a move only if the old file is gone; otherwise two files claim one id.
    const oldStillThere = await fs
      .access(hubFile(hub.hubDir, previousPath))
      .then(() => true)
      .catch(() => false);
    if (oldStillThere) {
      return { path, status: 'invalid', error: `id ${khId} already belongs to ${previousPath}` };
    }
  }
  // A different document at this path (its file was rewritten with another id) is replaced.
  await client.query('DELETE FROM kb_documents WHERE path = $1 AND kh_id <> $2', [path, khId]);
  await client.query(
    `INSERT INTO kb_documents (kh_id, path, title, frontmatter, body, sensitivity, tags, source, source_url, source_hash, content_hash, org_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (kh_id) DO UPDATE SET path = $2, title = $3, frontmatter = $4, body = $5, sensitivity = $6, tags = $7,
       source = $8, source_url = $9, source_hash = $10, content_hash = $11, updated_at = now(),
       org_id = CASE WHEN $13 THEN $12 ELSE kb_documents.org_id END`,
    [
      khId,
      path,
      document.title,
      JSON.stringify(fm),
      document.body,
      fm.sensitivity,
      fm.tags,
      sourceOf(path),
      fm.source_url ?? null,
      fm.source_hash ?? null,
      prepared.contentHash,
      org ?? null,
      org !== undefined,
    ],
  );

  const chunkIds = prepared.chunks.map((c) => c.chunkId);
  // Chunks of another embedder, or whose text is gone, go; the rest keep their rows and vectors.
  await client.query(
    `DELETE FROM kb_chunks WHERE kh_id = $1 AND (NOT (chunk_id = ANY($2)) OR embedding_model <> $3 OR embedding_dims <> $4)`,
    [khId, chunkIds, identity.model, identity.dims],
  );
  const kept = new Set(
    (await client.query<{ chunk_id: string }>('SELECT chunk_id FROM kb_chunks WHERE kh_id = $1', [khId])).rows.map(
      (r) => r.chunk_id,
    ),
  );
  const fresh = prepared.chunks.filter((c) => !kept.has(c.chunkId));
  const stillMissing = fresh.filter((c) => !vectors.has(c.chunkId));
  if (stillMissing.length > 0) {
    // A concurrent writer removed chunks this one meant to keep: embed them now rather than fail.
    const late = await hub.embedder.embed(
      stillMissing.map((c) => c.content),
      'document',
    );
    stillMissing.forEach((c, i) => vectors.set(c.chunkId, late[i]!));
  }
  const moved = prepared.chunks.filter((c) => kept.has(c.chunkId));
  if (moved.length > 0) {
    await client.query(
      `UPDATE kb_chunks c SET ordinal = u.ordinal, start_line = u.start_line, end_line = u.end_line
       FROM unnest($1::text[], $2::int[], $3::int[], $4::int[]) AS u(chunk_id, ordinal, start_line, end_line)
       WHERE c.chunk_id = u.chunk_id
         AND (c.ordinal, c.start_line, c.end_line) IS DISTINCT FROM (u.ordinal, u.start_line, u.end_line)`,
      [
        moved.map((c) => c.chunkId),
        moved.map((c) => c.ordinal),
        moved.map((c) => c.startLine),
        moved.map((c) => c.endLine),
      ],
    );
  }
  if (fresh.length > 0) {
    await client.query(
      `INSERT INTO kb_chunks (chunk_id, kh_id, ordinal, heading, content, start_line, end_line, embedding, embedding_model, embedding_dims)
       SELECT u.chunk_id, $1, u.ordinal, u.heading, u.content, u.start_line, u.end_line, u.embedding::real[], $8, $9
       FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::int[], $7::int[], $10::text[])
         AS u(chunk_id, ordinal, heading, content, start_line, end_line, embedding)`,
      [
        khId,
        fresh.map((c) => c.chunkId),
        fresh.map((c) => c.ordinal),
        fresh.map((c) => c.heading),
        fresh.map((c) => c.content),
        fresh.map((c) => c.startLine),
        fresh.map((c) => c.endLine),
        identity.model,
        identity.dims,
        fresh.map((c) => `{${vectors.get(c.chunkId)!.join(',')}}`),
      ],
    );
  }
  await client.query('DELETE FROM kb_links WHERE kh_id = $1', [khId]);
  if (prepared.links.length > 0) {
    await client.query(
      `INSERT INTO kb_links (kh_id, href, target_path, target_kh_id)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[])`,
      [
        khId,
        prepared.links.map((l) => l.href),
        prepared.links.map((l) => l.targetPath),
        prepared.links.map((l) => l.targetKhId),
      ],
    );
  }
  await storeLinkedFiles(client, khId, prepared.files, files);
  return { path, status: 'indexed', kh_id: khId, chunks: prepared.chunks.length, embedded: fresh.length };
}

/** Every markdown file under the hub directory and every indexed path, re-indexed: a full resynchronisation. */
export async function indexAll(hub: KnowledgeHub): Promise<IndexResult[]> {
  const onDisk = (await fs.readdir(hub.hubDir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) =>
      nodePath.relative(hub.hubDir, nodePath.join(entry.parentPath, entry.name)).split(nodePath.sep).join('/'),
    )
    .filter((p) => !p.startsWith('.git/'));
  const { rows } = await hub.pool.query<{ path: string }>('SELECT path FROM kb_documents');
  return indexPaths(hub, [...onDisk.sort(), ...rows.map((r) => r.path)]);
}
