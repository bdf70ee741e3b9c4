import { EmbedderUnavailableError } from '../errors';

/** Checks a provider's answer before a vector reaches the index: one finite vector per input, all one length. */
export function checkVectors(source: string, vectors: number[][], expected: number, dims?: number): number[][] {
  if (vectors.length !== expected) {
    throw new EmbedderUnavailableError(`${source} returned ${vectors.length} vectors for ${expected} inputs`);
  }
  const length = dims ?? vectors[0]?.length ?? 0;
  for (const vector of vectors) {
    if (vector.length !== length || length === 0) {
      throw new EmbedderUnavailableError(
        `${source} returned vectors of inconsistent length (${vector.length}, expected ${length})`,
      );
    }
    if (!vector.every(Number.isFinite)) throw new EmbedderUnavailableError(`${source} returned a non-finite number`);
  }
  return vectors;
}

/** Splits inputs into provider-sized batches. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
