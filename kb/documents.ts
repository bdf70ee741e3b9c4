import type { KnowledgeHub } from './hub';
import type { Sensitivity } from './sensitivity';
import { visibleSql } from './space';

export interface DocumentRow {
  kh_id: string;
  /** The document's org; null for the shared space. */
  org_id: string | null;
  path: string;
  title: string;
  frontmatter: Record<string, unknown>;
  body: string;
  sensitivity: Sensitivity;
  tags: string[];
  source: string;
  source_url: string | null;
  content_hash: string;
  created_at: Date;
  updated_at: Date;
}

/** A document the caller may read, or undefined (absent and unreadable look the same, so ids do not leak). */
export async function getDocument(
  hub: KnowledgeHub,
  khId: string,
  levels: Sensitivity[],
  org: string | null,
): Promise<DocumentRow | undefined> {
  const { rows } = await hub.pool.query<DocumentRow>(
    `SELECT kh_id, org_id, path, title, frontmatter, body, sensitivity, tags, source, source_url, content_hash, created_at, updated_at
     FROM kb_documents d WHERE kh_id = $1 AND sensitivity = ANY($2::text[]) AND ${visibleSql('$3')}`,
    [khId, levels, org],
  );
  return rows[0];
}

export interface Domains {
  sources: { source: string; documents: number; chunks: number }[];
  tags: { tag: string; documents: number }[];
}

/** The hub's domains as the caller can see them: each source with its document and chunk counts, each tag. */
export async function listDomains(hub: KnowledgeHub, levels: Sensitivity[], org: string | null): Promise<Domains> {
  const sources = await hub.pool.query<{ source: string; documents: string; chunks: string }>(
    `SELECT d.source, count(DISTINCT d.kh_id) AS documents, count(c.chunk_id) AS chunks
     FROM kb_documents d LEFT JOIN kb_chunks c ON c.kh_id = d.kh_id
     WHERE d.sensitivity = ANY($1::text[]) AND ${visibleSql('$2')}
     GROUP BY d.source ORDER BY d.source`,
    [levels, org],
  );
  const tags = await hub.pool.query<{ tag: string; documents: string }>(
    `SELECT tag, count(*) AS documents FROM kb_documents d, unnest(d.tags) AS tag
     WHERE d.sensitivity = ANY($1::text[]) AND ${visibleSql('$2')} GROUP BY tag ORDER BY count(*) DESC, tag LIMIT 500`,
    [levels, org],
  );
  return {
    sources: sources.rows.map((r) => ({ source: r.source, documents: Number(r.documents), chunks: Number(r.chunks) })),
    tags: tags.rows.map((r) => ({ tag: r.tag, documents: Number(r.documents) })),
  };
}

export interface ScopeEntry {
  kh_id: string;
  path: string;
  title: string;
  sensitivity: Sensitivity;
  tags: string[];
  source: string;
  updated_at: Date;
}

/** One page of a domain's documents in path order; `after` is the last path of the previous page. */
export async function listScope(
  hub: KnowledgeHub,
  input: { source?: string; tag?: string; levels: Sensitivity[]; org: string | null; limit: number; after?: string },
): Promise<ScopeEntry[]> {
  const { rows } = await hub.pool.query<ScopeEntry>(
    `SELECT kh_id, path, title, sensitivity, tags, source, updated_at FROM kb_documents d
     WHERE sensitivity = ANY($1::text[]) AND ${visibleSql('$6')}
       AND ($2::text IS NULL OR source = $2) AND ($3::text IS NULL OR $3 = ANY(tags))
       AND ($4::text IS NULL OR path > $4)
     ORDER BY path LIMIT $5`,
    [input.levels, input.source ?? null, input.tag ?? null, input.after ?? null, input.limit, input.org],
  );
  return rows;
}

export interface Neighbour {
  kh_id: string;
  path: string;
  title: string;
  similarity: number;
}

/**
 * The documents nearest to this one: the mean of its chunk vectors against the HNSW index, best chunk per other
 * document, as cosine similarity. Empty when the document has no chunks.
 */
export async function nearestDocuments(
  hub: KnowledgeHub,
  khId: string,
  levels: Sensitivity[],
  org: string | null,
  limit: number,
): Promise<Neighbour[]> {
  const identity = await hub.ready();
  const dims = identity.dims;
  const client = await hub.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL hnsw.iterative_scan = relaxed_order');
    const centroid = await client.query<{ v: string | null }>(
      `SELECT avg(embedding::vector(${dims}))::text AS v FROM kb_chunks
       WHERE kh_id = $1 AND embedding_dims = ${dims} AND embedding_model = $2`,
      [khId, identity.model],
    );
    const vector = centroid.rows[0]?.v;
    if (!vector) {
      await client.query('COMMIT');
      return [];
    }
    const { rows } = await client.query<{ kh_id: string; path: string; title: string; distance: number }>(
      `WITH near AS (
         SELECT c.kh_id, c.embedding::vector(${dims}) <=> $1::vector(${dims}) AS distance
         FROM kb_chunks c JOIN kb_documents d ON d.kh_id = c.kh_id
         WHERE c.embedding_dims = ${dims} AND c.embedding_model = $2 AND c.kh_id <> $3 AND d.sensitivity = ANY($4::text[])
           AND ${visibleSql('$6')}
         ORDER BY c.embedding::vector(${dims}) <=> $1::vector(${dims})
         LIMIT 100)
       SELECT n.kh_id, d.path, d.title, min(n.distance) AS distance
       FROM near n JOIN kb_documents d ON d.kh_id = n.kh_id
       GROUP BY n.kh_id, d.path, d.title ORDER BY min(n.distance), n.kh_id LIMIT $5`,
      [vector, identity.model, khId, levels, limit, org],
    );
    await client.query('COMMIT');
    return rows.map((r) => ({
      kh_id: r.kh_id,
      path: r.path,
      title: r.title,
      similarity: Number((1 - r.distance).toFixed(6)),
    }));
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

export interface Links {
  outgoing: { href: string; kh_id: string | null; path: string | null; title: string | null }[];
  incoming: { kh_id: string; path: string; title: string }[];
}

/** Links out of a document (resolved to hub documents the caller may read where they point into the hub) and into it. */
export async function linksOf(
  hub: KnowledgeHub,
  doc: { kh_id: string; path: string },
  levels: Sensitivity[],
  org: string | null,
): Promise<Links> {
  const outgoing = await hub.pool.query<{
    href: string;
    kh_id: string | null;
    path: string | null;
    title: string | null;
  }>(
    `SELECT l.href, t.kh_id, t.path, t.title FROM kb_links l
     LEFT JOIN kb_documents t ON (t.kh_id = l.target_kh_id OR t.path = l.target_path) AND t.sensitivity = ANY($2::text[])
       AND ${visibleSql('$3', 't')}
     WHERE l.kh_id = $1 ORDER BY l.href`,
    [doc.kh_id, levels, org],
  );
  const incoming = await hub.pool.query<{ kh_id: string; path: string; title: string }>(
    `SELECT DISTINCT d.kh_id, d.path, d.title FROM kb_links l JOIN kb_documents d ON d.kh_id = l.kh_id
     WHERE (l.target_kh_id = $1 OR l.target_path = $2) AND l.kh_id <> $1 AND d.sensitivity = ANY($3::text[])
       AND ${visibleSql('$4')}
     ORDER BY d.path LIMIT 200`,
    [doc.kh_id, doc.path, levels, org],
  );
  return { outgoing: outgoing.rows, incoming: incoming.rows };
}
