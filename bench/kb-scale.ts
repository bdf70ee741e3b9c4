// bench/kb-scale: the hybrid query (POST /v1/kb/query's path) at 100,000 chunks, beside an exact scan of the same
// vectors in the same run, and the HNSW half's recall@10 against that scan at several hnsw.ef_search values. The
// corpus (bench/kb-corpus.ts) is loaded straight into the index tables, so the run measures queries, not indexing
// (bench:kb measures that). Also the full-text half as it ran before the common-word cutoff, every word ranked.
//
// Needs PostgreSQL with pgvector (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end).
//   node dist/bench/kb-scale.js [--chunks=100000] [--queries=200] [--m=16] [--ef-construction=64]
//     [--ef=40,100,200,300,400] [--json]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Pool, PoolClient } from 'pg';
import { kbEnv } from '../kb/config';
import { OFFLINE_IDENTITY, offlineEmbed } from '../kb/embedders/offline';
import { commonTerms } from '../kb/common-terms';
import { ensureHnswIndex, HNSW_BUILD, openKnowledgeHub } from '../kb/hub';
import { HNSW_EF_SEARCH, searchKnowledge, textCandidates, vectorCandidates, type SearchScope } from '../kb/search';
import { levelsUpTo } from '../kb/sensitivity';
import { loadCorpus, random } from './kb-corpus';
import { param, percentile, printJson } from './measure';
import { runBench, Teardown } from './run-bench';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Words in a query: a phrase remembered from a section. */
const QUERY_WORDS = 5;
const WARMUP = 20;

function efList(): number[] {
  const flag = process.argv.find((arg) => arg.startsWith('--ef='));
  const values = (flag?.slice(5) ?? '40,100,200,300,400').split(',').map(Number);
  if (values.some((v) => !Number.isInteger(v) || v < 1 || v > 1000)) throw new Error('--ef takes integers 1..1000');
  return [...new Set([...values, HNSW_EF_SEARCH])].sort((a, b) => a - b);
}

interface Stats {
  p50: number;
  p99: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

async function inTransaction<T>(
  pool: Pool,
  run: (client: PoolClient) => Promise<T>,
): Promise<{ ms: number; value: T }> {
  const client = await pool.connect();
  try {
    const t0 = performance.now();
    await client.query('BEGIN');
    const value = await run(client);
    await client.query('COMMIT');
    return { ms: performance.now() - t0, value };
  } finally {
    client.release();
  }
}

async function main(): Promise<void> {
  const chunks = param('chunks', 100_000);
  const queries = param('queries', 200);
  const build = { m: param('m', HNSW_BUILD.m, 2), efConstruction: param('ef-construction', HNSW_BUILD.efConstruction) };
  const efs = efList();
  const load = [os.loadavg()];
  const rand = random(7);

  const teardown = new Teardown();
  try {
    const schema = `bench_kb_scale_${Date.now().toString(36)}`;
    const pool = await throwawaySchema(teardown, POSTGRES_DSN, schema, 2);
    const hubDir = path.join(os.tmpdir(), schema);
    teardown.push('hub directory', () => fs.rm(hubDir, { recursive: true, force: true }));
    const hub = await openKnowledgeHub({ pool, schema, hubDir, env: kbEnv.parse({}) });
    if (hub.unavailable) throw new Error(hub.unavailable);

    console.log(`loading ${chunks} chunks…`);
    let t0 = performance.now();
    const loaded = await loadCorpus(pool, chunks, rand);
    const loadSeconds = (performance.now() - t0) / 1000;
    t0 = performance.now();
    // Built once the rows are in (faster than growing it row by row), with room to build the graph in memory.
    await inTransaction(pool, async (client) => {
      await client.query(`SET LOCAL maintenance_work_mem = '512MB'`);
      await ensureHnswIndex(client, OFFLINE_IDENTITY.dims, build);
    });
    const buildSeconds = (performance.now() - t0) / 1000;
    await pool.query('ANALYZE kb_chunks');
    await pool.query('ANALYZE kb_documents');
    const identity = await hub.ready();
    const common = await commonTerms(pool);
    const { rows: sizes } = await pool.query<{ hnsw: string; gin: string }>(
      `SELECT pg_size_pretty(pg_relation_size('kb_chunks_hnsw_${identity.dims}')) AS hnsw,
              pg_size_pretty(pg_relation_size('kb_chunks_tsv_idx')) AS gin`,
    );

    const texts = Array.from({ length: queries + WARMUP }, () => {
      const words = loaded[Math.floor(rand() * loaded.length)]!.words;
      const at = Math.floor(rand() * (words.length - QUERY_WORDS));
      return words.slice(at, at + QUERY_WORDS).join(' ');
    });
    const warm = texts.slice(0, WARMUP);
    const measured = texts.slice(WARMUP);
    const scope: SearchScope = { levels: levelsUpTo('internal'), org: null };
    const vectors = measured.map(offlineEmbed);

    // Each query goes through every variant in turn, so the machine's load (shared, and it swings) weighs on all of
    // them alike: the hybrid query as the route runs it, the exact top 10 (the vector half's SQL with index scans off,
    // a sequential scan of the vectors), the HNSW half at each ef_search, the full-text half as shipped and as it was
    // before the cutoff (every query word OR-ed, every match ranked). Warm-up queries first, measured nowhere.
    const hybrid: number[] = [];
    const exact: Array<{ ms: number; ids: string[]; tenth: number }> = [];
    const hnsw = efs.map((efSearch) => ({ efSearch, ms: [] as number[], recall: 0, strict: 0 }));
    const text: number[] = [];
    const textAllWords: number[] = [];
    for (const query of warm) await searchKnowledge(hub, { query, k: 8, ...scope });
    for (const [i, query] of measured.entries()) {
      const vector = vectors[i]!;
      const t = performance.now();
      await searchKnowledge(hub, { query, k: 8, ...scope });
      hybrid.push(performance.now() - t);

      const { ms, value } = await inTransaction(pool, async (client) => {
        await client.query('SET LOCAL enable_indexscan = off');
        return vectorCandidates(client, identity, vector, scope, { limit: 10 });
      });
      const want = { ids: value.map((r) => r.chunk_id), tenth: value.at(-1)?.distance ?? Infinity };
      exact.push({ ms, ...want });

      // Recall counts a returned chunk as right when it is in the exact top 10 or as near as its 10th (chunks at the
      // same distance are interchangeable); strict recall counts only the exact ids.
      for (const e of hnsw) {
        const got = await inTransaction(pool, (client) =>
          vectorCandidates(client, identity, vector, scope, { limit: 10, efSearch: e.efSearch }),
        );
        e.ms.push(got.ms);
        const denominator = Math.max(1, want.ids.length);
        e.recall +=
          got.value.filter((r) => want.ids.includes(r.chunk_id) || r.distance <= want.tenth + 1e-6).length /
          denominator;
        e.strict += got.value.filter((r) => want.ids.includes(r.chunk_id)).length / denominator;
      }

      text.push((await inTransaction(pool, (client) => textCandidates(client, query, scope, common))).ms);
      const before = await inTransaction(pool, (client) =>
        client.query(
          `SELECT c.chunk_id
           FROM kb_chunks c JOIN kb_documents d ON d.kh_id = c.kh_id,
                (SELECT replace(plainto_tsquery('english', $1)::text, ' & ', ' | ')::tsquery AS q) query
           WHERE c.tsv @@ query.q AND d.sensitivity = ANY($2::text[])
           ORDER BY ts_rank_cd(c.tsv, query.q) DESC, c.chunk_id
           LIMIT 50`,
          [query, scope.levels],
        ),
      );
      textAllWords.push(before.ms);
    }
    const byEf = hnsw.map((e) => ({
      efSearch: e.efSearch,
      ...stats(e.ms),
      recall: e.recall / measured.length,
      strict: e.strict / measured.length,
    }));
    load.push(os.loadavg());

    const h = stats(hybrid);
    const x = stats(exact.map((e) => e.ms));
    const t = stats(text);
    const tb = stats(textAllWords);
    const shipped = byEf.find((e) => e.efSearch === HNSW_EF_SEARCH)!;
    const ms = (v: number) => `${v.toFixed(1).padStart(7)} ms`;
    const row = (label: string, s: Stats, extra = '') =>
      console.log(`${label.padEnd(52)} p50 ${ms(s.p50)}   p99 ${ms(s.p99)}${extra}`);
    const loadText = load.map((l) => l.map((v) => v.toFixed(2)).join(' ')).join(' → ');
    console.log('');
    console.log(
      `knowledge index at ${loaded.length} chunks (offline embedder, ${identity.dims} dims), n=${measured.length} queries of ${QUERY_WORDS} words`,
    );
    console.log(
      `load ${loadSeconds.toFixed(0)} s; HNSW m=${build.m} ef_construction=${build.efConstruction} built in ${buildSeconds.toFixed(0)} s (${sizes[0]!.hnsw}); GIN ${sizes[0]!.gin}; ${common.size} common terms`,
    );
    console.log(`load average (1/5/15 min) at start → end: ${loadText}`);
    row(`hybrid query (searchKnowledge), ef_search ${HNSW_EF_SEARCH}`, h);
    row('vector top-10, exact scan (baseline)', x);
    console.log(
      `hybrid / exact scan                                  p50 ${(h.p50 / x.p50).toFixed(3)}×    p99 ${(h.p99 / x.p99).toFixed(3)}×`,
    );
    for (const e of byEf) {
      row(
        `vector top-10 via HNSW, ef_search ${e.efSearch}`,
        e,
        `   recall@10 ${e.recall.toFixed(3)} (exact ids ${e.strict.toFixed(3)})`,
      );
    }
    row('full-text half (common words cut, rank ≤ 1,000)', t);
    row('full-text half before (every word, every match)', tb);

    printJson('kb-scale', {
      chunks: loaded.length,
      queries: measured.length,
      m: build.m,
      ef_construction: build.efConstruction,
      ef_search: HNSW_EF_SEARCH,
      hybrid_p50_ms: h.p50,
      hybrid_p99_ms: h.p99,
      exact_scan_p50_ms: x.p50,
      exact_scan_p99_ms: x.p99,
      hybrid_over_exact_p50_ratio: h.p50 / x.p50,
      hybrid_over_exact_p99_ratio: h.p99 / x.p99,
      recall_at_10: shipped.recall,
      recall_at_10_exact_ids: shipped.strict,
      hnsw: byEf.map((e) => ({ ef_search: e.efSearch, p50_ms: e.p50, p99_ms: e.p99, recall_at_10: e.recall })),
      text_p50_ms: t.p50,
      text_p99_ms: t.p99,
      text_every_word_p50_ms: tb.p50,
      text_every_word_p99_ms: tb.p99,
      load_average_start: load[0]![0],
      load_average_end: load[1]![0],
    });
  } finally {
    await teardown.run();
  }
}

runBench(main);
