import { describeIdentity, type EmbedderIdentity } from './embedders/types';
import { KbUnavailableError } from './errors';
import { claimIndex, ensureHnswIndex, type KnowledgeHub } from './hub';

const BATCH = 256;

/**
 * `keel kb reembed`: rewrites every vector not made by the configured embedder, batch by batch, then records that
 * embedder as the index's, which lifts the re-embed guard. Safe to interrupt and run again (it resumes with what is
 * left); queries meanwhile see only chunks whose vectors already match the embedder they run with.
 */
export async function reembedIndex(
  hub: KnowledgeHub,
  progress: (done: number, total: number) => void = () => undefined,
): Promise<{ identity: EmbedderIdentity; reembedded: number; description: string }> {
  if (hub.unavailable) throw new KbUnavailableError(hub.unavailable);
  const identity = await hub.embedder.identity();
  await ensureHnswIndex(hub.pool, identity.dims);
  const stale = `embedding_model <> $1 OR embedding_dims <> $2`;
  const { rows: count } = await hub.pool.query<{ n: string }>(`SELECT count(*) AS n FROM kb_chunks WHERE ${stale}`, [
    identity.model,
    identity.dims,
  ]);
  const total = Number(count[0]!.n);
  let done = 0;
  for (;;) {
    const { rows } = await hub.pool.query<{ chunk_id: string; content: string }>(
      `SELECT chunk_id, content FROM kb_chunks WHERE ${stale} ORDER BY chunk_id LIMIT ${BATCH}`,
      [identity.model, identity.dims],
    );
    if (rows.length === 0) break;
    const vectors = await hub.embedder.embed(
      rows.map((r) => r.content),
      'document',
    );
    await hub.pool.query(
      `UPDATE kb_chunks c SET embedding = u.embedding::real[], embedding_model = $3, embedding_dims = $4
       FROM unnest($1::text[], $2::text[]) AS u(chunk_id, embedding) WHERE c.chunk_id = u.chunk_id`,
      [rows.map((r) => r.chunk_id), vectors.map((v) => `{${v.join(',')}}`), identity.model, identity.dims],
    );
    done += rows.length;
    progress(done, total);
  }
  await claimIndex(hub.pool, identity);
  return { identity, reembedded: done, description: describeIdentity(identity) };
}
