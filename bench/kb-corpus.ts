// The corpus of bench:kb-scale: documents on topics, loaded straight into kb_documents/kb_chunks (no hub files, no
// chunker), so 100,000 chunks load in well under a minute and the run measures queries, not indexing (bench:kb does).
import type { Pool } from 'pg';
import { OFFLINE_IDENTITY, offlineEmbed } from '../kb/embedders/offline';
import { khIdFor } from '../kb/kh-id';

export const SECTIONS_PER_DOC = 10;
const WORDS_PER_SECTION = 60;
const DOCS_PER_TOPIC = 5;
const TOPIC_WORDS = 20;
/** Share of a section's words drawn from its topic; the rest from prose shared by every topic. */
const TOPIC_SHARE = 0.6;
const BATCH_CHUNKS = 2_000;

/** A small deterministic PRNG (mulberry32), so every run loads the same corpus. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface LoadedChunk {
  chunkId: string;
  /** The section's words (no heading), for drawing queries from. */
  words: string[];
}

/**
 * Loads `chunks` chunks in documents of SECTIONS_PER_DOC sections. Each topic (DOCS_PER_TOPIC documents) has its own
 * TOPIC_WORDS words drawn from a 60,000-word vocabulary; a section mixes its topic's words with common prose drawn
 * Zipf-like from 3,000 words, so a handful of prose words occur in most chunks (the full-text half's worst case) while
 * the offline embedder still tells the topics apart. Returns every chunk's id and words.
 */
export async function loadCorpus(pool: Pool, chunks: number, rand: () => number): Promise<LoadedChunk[]> {
  const docs = Math.ceil(chunks / SECTIONS_PER_DOC);
  const topics = Math.ceil(docs / DOCS_PER_TOPIC);
  const rare = Array.from({ length: 60_000 }, (_, i) => `t${i.toString(36)}`);
  const prose = Array.from({ length: 3_000 }, (_, i) => `p${i.toString(36)}`);
  const topicWords = Array.from({ length: topics }, () =>
    Array.from({ length: TOPIC_WORDS }, () => rare[Math.floor(rand() * rare.length)]!),
  );
  const section = (topic: number) =>
    Array.from({ length: WORDS_PER_SECTION }, () =>
      rand() < TOPIC_SHARE
        ? topicWords[topic]![Math.floor(rand() * TOPIC_WORDS)]!
        : prose[Math.floor(prose.length * rand() ** 4)]!,
    );

  const loaded: LoadedChunk[] = [];
  let batch: Array<{ khId: string; ordinal: number; chunkId: string; heading: string; content: string; v: string }> =
    [];
  const flush = async () => {
    if (batch.length === 0) return;
    await pool.query(
      `INSERT INTO kb_chunks (chunk_id, kh_id, ordinal, heading, content, start_line, end_line, embedding, embedding_model, embedding_dims)
       SELECT u.chunk_id, u.kh_id, u.ordinal, u.heading, u.content, u.ordinal * 4 + 1, u.ordinal * 4 + 3,
              u.embedding::real[], $7, $8
       FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[])
         AS u(chunk_id, kh_id, ordinal, heading, content, embedding)`,
      [
        batch.map((c) => c.chunkId),
        batch.map((c) => c.khId),
        batch.map((c) => c.ordinal),
        batch.map((c) => c.heading),
        batch.map((c) => c.content),
        batch.map((c) => c.v),
        OFFLINE_IDENTITY.model,
        OFFLINE_IDENTITY.dims,
      ],
    );
    batch = [];
  };

  for (let d = 0; d < docs; d += 1) {
    const khId = khIdFor(`bench:${d}`);
    const topic = Math.floor(d / DOCS_PER_TOPIC);
    const sections = Array.from({ length: SECTIONS_PER_DOC }, () => section(topic));
    const title = `Document ${d}`;
    const body = sections.map((words, s) => `## Section ${s}\n\n${words.join(' ')}\n`).join('\n');
    await pool.query(
      `INSERT INTO kb_documents (kh_id, path, title, frontmatter, body, sensitivity, tags, source, content_hash)
       VALUES ($1, $2, $3, '{}', $4, 'internal', '{}', 'hub', $5)`,
      [khId, `bench/d${Math.floor(d / 1000)}/doc-${d}.md`, title, body, `sha256:${d}`],
    );
    sections.forEach((words, s) => {
      const heading = `${title} > Section ${s}`;
      const content = `## Section ${s}\n\n${words.join(' ')}`;
      const vector = offlineEmbed(`${heading}\n${content}`);
      const chunkId = `${khId}:${s.toString(16).padStart(16, '0')}`;
      batch.push({ khId, ordinal: s, chunkId, heading, content, v: `{${vector.map((x) => x.toFixed(6)).join(',')}}` });
      loaded.push({ chunkId, words });
    });
    if (batch.length >= BATCH_CHUNKS) await flush();
    if (d % 1000 === 0) process.stderr.write(`\r  loaded ${loaded.length} chunks`);
  }
  await flush();
  process.stderr.write(`\r  loaded ${loaded.length} chunks\n`);
  await pool.query(`INSERT INTO kb_embedder (provider, model, dims) VALUES ($1, $2, $3)`, [
    OFFLINE_IDENTITY.provider,
    OFFLINE_IDENTITY.model,
    OFFLINE_IDENTITY.dims,
  ]);
  return loaded;
}
