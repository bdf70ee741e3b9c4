// bench/kb: the knowledge index at scale with the offline embedder. Indexing throughput (chunks/s through the real
// indexing interface: parse, chunk, embed, one transaction per document, HNSW maintained as rows arrive), then query
// latency p50/p99: the hybrid query as POST /v1/kb/query runs it, and its vector half through the HNSW index versus
// a sequential scan of the same vectors (index scans switched off), with the HNSW answer's recall@10 against it.
//
// Needs PostgreSQL with pgvector (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end).
//   node dist/bench/kb.js [--chunks=100000] [--queries=200]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { kbEnv } from '../kb/config';
import { offlineEmbed } from '../kb/embedders/offline';
import { openKnowledgeHub } from '../kb/hub';
import { indexPaths } from '../kb/indexer';
import { khIdFor } from '../kb/kh-id';
import { HNSW_EF_SEARCH, searchKnowledge } from '../kb/search';
import { levelsUpTo } from '../kb/sensitivity';
import { param, percentile, printJson } from './measure';
import { runBench } from './run-bench';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECTIONS_PER_DOC = 10;
const WORDS_PER_SECTION = 60;
const BATCH_PATHS = 200;

/** A small deterministic PRNG (mulberry32), so every run indexes the same corpus. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main(): Promise<void> {
  const chunks = param('chunks', 100_000);
  const queries = param('queries', 200);
  const docs = Math.ceil(chunks / SECTIONS_PER_DOC);
  const rand = random(7);
  // A Zipf-ish vocabulary: a few common words and a long tail, as in prose.
  const vocabulary = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`);
  const word = () => vocabulary[Math.floor(vocabulary.length * rand() ** 3)]!;
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

  const schema = `bench_kb_${Date.now().toString(36)}`;
  const pool = createPool({ dsn: POSTGRES_DSN, max: 4, ssl: false, schema });
  const hubDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-bench-hub-'));
  try {
    await migrate(pool, schema);
    const hub = await openKnowledgeHub({ pool, schema, hubDir, env: kbEnv.parse({}) });
    if (hub.unavailable) throw new Error(hub.unavailable);
    await hub.ready();

    console.log(`writing ${docs} documents of ${SECTIONS_PER_DOC} sections (${docs * SECTIONS_PER_DOC} chunks)…`);
    const paths: string[] = [];
    for (let d = 0; d < docs; d += 1) {
      const hubPath = `bench/d${Math.floor(d / 1000)}/doc-${d}.md`;
      const body = Array.from(
        { length: SECTIONS_PER_DOC },
        (_, s) => `## Section ${s} of ${d}\n\n${sentence(WORDS_PER_SECTION)}\n`,
      ).join('\n');
      const file = path.join(hubDir, hubPath);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, `---\nid: ${khIdFor(`bench:${d}`)}\nsensitivity: internal\n---\n${body}`);
      paths.push(hubPath);
    }

    const started = performance.now();
    let indexed = 0;
    for (let i = 0; i < paths.length; i += BATCH_PATHS) {
      const results = await indexPaths(hub, paths.slice(i, i + BATCH_PATHS));
      for (const r of results) if (r.status === 'indexed') indexed += r.chunks;
      if ((i / BATCH_PATHS) % 10 === 0) process.stderr.write(`\r  indexed ${indexed} chunks`);
    }
    const indexSeconds = (performance.now() - started) / 1000;
    process.stderr.write('\n');
    await pool.query('ANALYZE kb_chunks');
    await pool.query('ANALYZE kb_documents');

    // Queries: three words taken from a random section, as a person remembering a phrase would type them.
    const { rows: samples } = await pool.query<{ content: string }>(
      `SELECT content FROM kb_chunks TABLESAMPLE SYSTEM (1) LIMIT ${queries}`,
    );
    const texts = samples.map((s) => {
      const words = s.content.split('\n\n')[1]!.split(' ');
      const at = Math.floor(rand() * (words.length - 3));
      return words.slice(at, at + 3).join(' ');
    });

    const levels = levelsUpTo('internal');
    const hybrid: number[] = [];
    for (const query of texts) {
      const t0 = performance.now();
      await searchKnowledge(hub, { query, k: 8, levels, org: null });
      hybrid.push(performance.now() - t0);
    }

    const dims = 256;
    const knn = async (vector: number[], exact: boolean) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        if (exact) await client.query('SET LOCAL enable_indexscan = off');
        await client.query(`SET LOCAL hnsw.ef_search = ${HNSW_EF_SEARCH}`);
        const t0 = performance.now();
        const { rows } = await client.query<{ chunk_id: string }>(
          `SELECT chunk_id FROM kb_chunks WHERE embedding_dims = ${dims}
           ORDER BY embedding::vector(${dims}) <=> $1::vector(${dims}) LIMIT 10`,
          [`[${vector.join(',')}]`],
        );
        const ms = performance.now() - t0;
        await client.query('COMMIT');
        return { ms, ids: rows.map((r) => r.chunk_id) };
      } finally {
        client.release();
      }
    };
    const viaIndex: number[] = [];
    const viaScan: number[] = [];
    let recall = 0;
    for (const query of texts) {
      const vector = offlineEmbed(query);
      const approx = await knn(vector, false);
      const exact = await knn(vector, true);
      viaIndex.push(approx.ms);
      viaScan.push(exact.ms);
      recall += approx.ids.filter((id) => exact.ids.includes(id)).length / Math.max(1, exact.ids.length);
    }
    const { rows: plan } = await pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT chunk_id FROM kb_chunks WHERE embedding_dims = ${dims}
       ORDER BY embedding::vector(${dims}) <=> $1::vector(${dims}) LIMIT 10`,
      [`[${offlineEmbed('plan probe').join(',')}]`],
    );

    const row = (label: string, samples: number[]) => {
      const sorted = [...samples].sort((a, b) => a - b);
      return `${label.padEnd(44)} p50 ${percentile(sorted, 0.5).toFixed(2).padStart(8)} ms   p99 ${percentile(sorted, 0.99).toFixed(2).padStart(8)} ms`;
    };
    console.log('');
    console.log(`knowledge index, offline embedder (${dims} dims), ${indexed} chunks in ${docs} documents`);
    console.log(
      `indexing                                     ${(indexed / indexSeconds).toFixed(0)} chunks/s (${indexSeconds.toFixed(1)} s)`,
    );
    console.log(row(`hybrid query (POST /v1/kb/query path), n=${texts.length}`, hybrid));
    console.log(row('vector top-10 via HNSW', viaIndex));
    console.log(row('vector top-10 via sequential scan (baseline)', viaScan));
    console.log(`HNSW recall@10 against the sequential scan   ${(recall / texts.length).toFixed(3)}`);
    console.log(
      `plan of the HNSW query: ${plan
        .map((p) => p['QUERY PLAN'].trim())
        .slice(0, 2)
        .join(' / ')}`,
    );
    const p50 = (samples: number[]) =>
      percentile(
        [...samples].sort((a, b) => a - b),
        0.5,
      );
    printJson('kb', {
      index_chunks_per_s: indexed / indexSeconds,
      hybrid_p50_ms: p50(hybrid),
      hnsw_p50_ms: p50(viaIndex),
      scan_p50_ms: p50(viaScan),
      hnsw_over_scan_p50_ratio: p50(viaIndex) / p50(viaScan),
      recall_at_10: recall / texts.length,
    });
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await pool.end();
    await fs.rm(hubDir, { recursive: true, force: true });
  }
}

runBench(main);
