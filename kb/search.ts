import type { KnowledgeHub } from './hub';
import type { Sensitivity } from './sensitivity';
import { visibleSql } from './space';

/** Candidates each ranker contributes before fusion. */
const CANDIDATES = 50;
/** Reciprocal-rank-fusion constant (Cormack et al.): damps the weight of the very top ranks. */
const RRF_K = 60;

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

interface Candidate {
  chunk_id: string;
}

/**
 * Hybrid search: the query's vector against the HNSW index (cosine) and the query's words against the chunks'
 * full-text index (any word, ranked by cover density), fused by reciprocal rank: score = Σ 1 / (60 + rank) over the
 * two lists. Both lists only hold chunks the caller may read (`levels`, `org`) that pass the filters; chunks whose vectors
 * came from another embedder are never compared.
 */
export async function searchKnowledge(
  hub: KnowledgeHub,
  input: {
    query: string;
    k: number;
    levels: Sensitivity[];
    /** The reader's org (its documents and the shared space), or null for every org (admin tokens). */
    org: string | null;
    filters?: SearchFilters;
  },
): Promise<SearchHit[]> {
  if (input.levels.length === 0) return [];
  const identity = await hub.ready();
  const [vector] = await hub.embedder.embed([input.query], 'query');
  const dims = identity.dims;
  const literal = `[${vector!.join(',')}]`;
  const filterSql = `d.sensitivity = ANY($2::text[])
    AND ($3::text[] IS NULL OR d.tags && $3::text[])
    AND ($4::text[] IS NULL OR d.source = ANY($4::text[]))
    AND ${visibleSql('$5')}`;
  const filterArgs = [input.levels, input.filters?.tags ?? null, input.filters?.source ?? null, input.org];

  const client = await hub.pool.connect();
  try {
    await client.query('BEGIN');
    // Filters are applied after the HNSW scan; iterative scanning keeps reading the graph until enough rows pass.
    await client.query(`SET LOCAL hnsw.ef_search = ${Math.max(CANDIDATES * 2, 40)}`);
    await client.query(`SET LOCAL hnsw.iterative_scan = relaxed_order`);
    const byVector = await client.query<Candidate & { distance: number }>(
      `SELECT c.chunk_id, c.embedding::vector(${dims}) <=> $1::vector(${dims}) AS distance
       FROM kb_chunks c JOIN kb_documents d ON d.kh_id = c.kh_id
       WHERE c.embedding_dims = ${dims} AND c.embedding_model = $6 AND ${filterSql}
       ORDER BY c.embedding::vector(${dims}) <=> $1::vector(${dims})
       LIMIT ${CANDIDATES}`,
      [literal, ...filterArgs, identity.model],
    );
    const byText = await client.query<Candidate>(
      `SELECT c.chunk_id
       FROM kb_chunks c JOIN kb_documents d ON d.kh_id = c.kh_id,
            (SELECT replace(plainto_tsquery('english', $1)::text, ' & ', ' | ')::tsquery AS q) query
       WHERE c.tsv @@ query.q AND ${filterSql}
       ORDER BY ts_rank_cd(c.tsv, query.q) DESC, c.chunk_id
       LIMIT ${CANDIDATES}`,
      [input.query, ...filterArgs],
    );
    await client.query('COMMIT');

    const scores = new Map<string, number>();
    // relaxed_order may return near-ties slightly out of order; the distances say the true order.
    const vectorRanked = [...byVector.rows].sort((a, b) => a.distance - b.distance);
    for (const list of [vectorRanked, byText.rows]) {
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
