import type { PoolClient } from 'pg';
import { commonTerms } from './common-terms';
import type { EmbedderIdentity } from './embedders/types';
import type { KnowledgeHub } from './hub';
import type { Sensitivity } from './sensitivity';
import { visibleSql } from './space';

/** Candidates each ranker contributes before fusion. */
export const CANDIDATES = 50;
/** Reciprocal-rank-fusion constant (Cormack et al.): damps the weight of the very top ranks. */
const RRF_K = 60;
/**
 * pgvector's hnsw.ef_search for a query: the size of the candidate list the graph walk keeps. Chosen with
 * bench:kb-scale for recall@10 ≥ 0.9 against an exact scan at 100,000 chunks (docs/knowledge-hub.md, "Query tuning").
 */
export const HNSW_EF_SEARCH = 300;
/** The full-text half ranks at most this many matching chunks (a query made only of common words matches most). */
export const TEXT_RANK_LIMIT = 1_000;

export interface SearchFilters {
  tags?: string[];
  source?: string[];
}

export interface SearchHit {
  chunk_id: string;
  kh_id: string;
  path: string;
  title: string;
  heading: string;
  snippet: string;
  score: number;
  sensitivity: Sensitivity;
  tags: string[];
  source: string;
  start_line: number;
  end_line: number;
}

/** Whose chunks a query may return: the caller's readable levels and org, narrowed by the filters. */
export interface SearchScope {
  levels: Sensitivity[];
  /** The reader's org (its documents and the shared space), or null for every org (admin tokens). */
  org: string | null;
  filters?: SearchFilters;
}

interface Candidate {
  chunk_id: string;
}

/** The scope as SQL over the document aliased `d`, its arguments bound from `$first` on. */
function scopeSql(scope: SearchScope, first: number): { sql: string; args: unknown[] } {
  const $ = (i: number) => `$${first + i}`;
  return {
    sql: `d.sensitivity = ANY(${$(0)}::text[])
    AND (${$(1)}::text[] IS NULL OR d.tags && ${$(1)}::text[])
    AND (${$(2)}::text[] IS NULL OR d.source = ANY(${$(2)}::text[]))
    AND ${visibleSql($(3))}`,
    args: [scope.levels, scope.filters?.tags ?? null, scope.filters?.source ?? null, scope.org],
  };
}

/**
 * The vector half: the `limit` chunks in scope nearest to `vector` (cosine), nearest first, through the HNSW index.
 * Runs inside the caller's transaction: it sets hnsw.ef_search and iterative scanning for that transaction only.
 * Filters are applied after the HNSW scan; iterative scanning keeps reading the graph until enough rows pass.
 */
export async function vectorCandidates(
  client: PoolClient,
  identity: EmbedderIdentity,
  vector: number[],
  scope: SearchScope,
  { limit = CANDIDATES, efSearch = HNSW_EF_SEARCH }: { limit?: number; efSearch?: number } = {},
): Promise<Array<Candidate & { distance: number }>> {
  const dims = identity.dims;
  if (!Number.isInteger(efSearch) || efSearch < 1 || efSearch > 1000) throw new Error(`bad ef_search ${efSearch}`);
  // One round trip for both settings (a simple-protocol query may hold several statements).
  await client.query(`SET LOCAL hnsw.ef_search = ${efSearch}; SET LOCAL hnsw.iterative_scan = relaxed_order`);
  const scoped = scopeSql(scope, 3);
  const { rows } = await client.query<Candidate & { distance: number }>(
    `SELECT c.chunk_id, c.embedding::vector(${dims}) <=> $1::vector(${dims}) AS distance
     FROM kb_chunks c JOIN kb_documents d ON d.kh_id = c.kh_id
     WHERE c.embedding_dims = ${dims} AND c.embedding_model = $2 AND ${scoped.sql}
     ORDER BY c.embedding::vector(${dims}) <=> $1::vector(${dims})
     LIMIT ${limit}`,
    [`[${vector.join(',')}]`, identity.model, ...scoped.args],
  );
  // relaxed_order may return near-ties slightly out of order; the distances say the true order.
  return rows.sort((a, b) => a.distance - b.distance);
}

/**
 * The full-text half: chunks in scope holding any of the query's words, ranked by cover density. Common words
 * (commonTerms) are left out of a query that has a rarer one; a query of common words only ranks the first
 * TEXT_RANK_LIMIT chunks holding one of them. Both bound the rows ts_rank_cd reads, which is this half's cost.
 */
export async function textCandidates(
  client: PoolClient,
  query: string,
  scope: SearchScope,
  common: Set<string>,
): Promise<Candidate[]> {
  const { rows: lexemes } = await client.query<{ words: string[] | null }>(
    `SELECT tsvector_to_array(to_tsvector('english', $1)) AS words`,
    [query],
  );
  const words = lexemes[0]?.words ?? [];
  if (words.length === 0) return [];
  const rare = words.filter((w) => !common.has(w));
  const terms = rare.length > 0 ? rare : words;
  // A tsquery of quoted lexemes (already normalised, so no dictionary runs again): 'a' | 'b'.
  const tsquery = terms.map((w) => `'${w.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
  const scoped = scopeSql(scope, 2);
  const { rows } = await client.query<Candidate>(
    `SELECT m.chunk_id
     FROM (SELECT c.chunk_id, c.tsv
           FROM kb_chunks c JOIN kb_documents d ON d.kh_id = c.kh_id
           WHERE c.tsv @@ $1::tsquery AND ${scoped.sql}
           LIMIT ${TEXT_RANK_LIMIT}) m
     ORDER BY ts_rank_cd(m.tsv, $1::tsquery) DESC, m.chunk_id
     LIMIT ${CANDIDATES}`,
    [tsquery, ...scoped.args],
  );
  return rows;
}

/**
 * Hybrid search: the query's vector against the HNSW index (cosine) and the query's words against the chunks'
 * full-text index (any word, ranked by cover density), fused by reciprocal rank: score = Σ 1 / (60 + rank) over the
 * two lists. Both lists only hold chunks the caller may read (`levels`, `org`) that pass the filters; chunks whose vectors
 * came from another embedder are never compared.
 */
export async function searchKnowledge(
  hub: KnowledgeHub,
  input: SearchScope & { query: string; k: number },
): Promise<SearchHit[]> {
  if (input.levels.length === 0) return [];
  const identity = await hub.ready();
  const [vector] = await hub.embedder.embed([input.query], 'query');
  const common = await commonTerms(hub.pool);

  const client = await hub.pool.connect();
  try {
    await client.query('BEGIN');
    const byVector = await vectorCandidates(client, identity, vector!, input);
    const byText = await textCandidates(client, input.query, input, common);
    await client.query('COMMIT');

    const scores = new Map<string, number>();
    for (const list of [byVector, byText]) {
      list.forEach((row, rank) => scores.set(row.chunk_id, (scores.get(row.chunk_id) ?? 0) + 1 / (RRF_K + rank + 1)));
    }
    const top = [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, input.k);
    if (top.length === 0) return [];
    const { rows } = await client.query<Omit<SearchHit, 'snippet' | 'score'> & { content: string }>(
      `SELECT c.chunk_id, c.kh_id, d.path, d.title, c.heading, c.content, d.sensitivity, d.tags, d.source,
              c.start_line, c.end_line
       FROM kb_chunks c JOIN kb_documents d ON d.kh_id = c.kh_id
       WHERE c.chunk_id = ANY($1)`,
      [top.map(([id]) => id)],
    );
    const byId = new Map(rows.map((row) => [row.chunk_id, row]));
    return top.flatMap(([id, score]) => {
      const row = byId.get(id);
      if (!row) return [];
      const { content, ...rest } = row;
      return [{ ...rest, snippet: snippetOf(content, input.query), score: Number(score.toFixed(6)) }];
    });
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

const SNIPPET_CHARS = 280;

/** About SNIPPET_CHARS of the chunk's text (its heading line left out) around the first query word found in it. */
export function snippetOf(content: string, query: string): string {
  const text = content
    .replace(/^#{1,6}[ \t].*\n+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= SNIPPET_CHARS) return text;
  const lower = text.toLowerCase();
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 2);
  const hit = words.map((w) => lower.indexOf(w)).filter((i) => i >= 0);
  const at = hit.length > 0 ? Math.min(...hit) : 0;
  let start = Math.max(0, at - Math.floor(SNIPPET_CHARS / 3));
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
