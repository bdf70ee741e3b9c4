import type { Pool } from 'pg';

/**
 * A full-text term found in more chunks than this is "common": ranking its matches would cost more than the rest of
 * a query (ts_rank_cd reads every matching row's tsvector), and a word that frequent says little about what the
 * caller is after (ts_rank_cd weighs no term by rarity). docs/knowledge-hub.md, "Ranking".
 */
export const COMMON_TERM_CHUNKS = 1_000;
/** How long one reading of the statistics serves queries; ANALYZE (autovacuum) refreshes them far less often. */
const FRESH_MS = 60_000;

const cache = new WeakMap<Pool, { at: number; terms: Promise<Set<string>> }>();

/**
 * The lexemes of kb_chunks.tsv estimated to occur in more than COMMON_TERM_CHUNKS chunks, from the statistics
 * ANALYZE keeps (pg_stats.most_common_elems: the most frequent lexemes with the share of rows holding each). Empty
 * before the first ANALYZE, so a new or small index drops nothing.
 */
export function commonTerms(pool: Pool): Promise<Set<string>> {
  const seen = cache.get(pool);
  if (seen && Date.now() - seen.at < FRESH_MS) return seen.terms;
  const terms = pool
    .query<{ elem: string }>(
      `SELECT m.elem
       FROM pg_stats s
       JOIN pg_class t ON t.relname = s.tablename AND t.relnamespace = to_regnamespace(s.schemaname)
       CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS m(elem, freq)
       WHERE s.schemaname = current_schema() AND s.tablename = 'kb_chunks' AND s.attname = 'tsv'
         AND m.elem IS NOT NULL AND m.freq * t.reltuples > $1`,
      [COMMON_TERM_CHUNKS],
    )
    .then(({ rows }) => new Set(rows.map((r) => r.elem)));
  // A failed read is not kept: the next query asks again.
  terms.catch(() => cache.delete(pool));
  cache.set(pool, { at: Date.now(), terms });
  return terms;
}
