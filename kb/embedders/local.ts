import OpenAI from 'openai';
import { EmbedderUnavailableError } from '../errors';
import type { Embedder, EmbedderIdentity } from './types';
import { batches, checkVectors } from './vectors';

/** A model every common local server (Ollama, llama.cpp, vLLM with it loaded) knows; EMBEDDING_MODEL overrides. */
export const DEFAULT_LOCAL_MODEL = 'nomic-embed-text';
const BATCH = 64;

export interface LocalEmbedderOptions {
  baseUrl: string;
  model?: string;
  timeoutMs: number;
  retries: number;
}

/**
 * An OpenAI-compatible `POST {LOCAL_EMBEDDING_URL}/embeddings` of a local inference server, through the openai
 * client (its own timeout and retries: connection errors, 408, 409, 429 and 5xx). Vectors are asked for as floats,
 * since not every local server speaks the client's default base64 encoding.
 */
export function createLocalEmbedder(options: LocalEmbedderOptions): Embedder {
  const model = options.model ?? DEFAULT_LOCAL_MODEL;
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: 'local',
    timeout: options.timeoutMs,
    maxRetries: options.retries,
  });
  let dims: number | undefined;

  async function embed(texts: readonly string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (const batch of batches(texts, BATCH)) {
      let vectors: number[][];
      try {
        const response = await client.embeddings.create({ model, input: batch, encoding_format: 'float' });
        vectors = [...response.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
      } catch (err) {
        throw new EmbedderUnavailableError(
          `the local embedding server at ${options.baseUrl} failed after ${options.retries + 1} attempt(s): ${(err as Error).message}`,
        );
      }
      checkVectors(`the local embedding server (${model})`, vectors, batch.length, dims);
      dims = vectors[0]!.length;
      out.push(...vectors);
    }
    return out;
  }

  return {
    async identity(): Promise<EmbedderIdentity> {
      if (dims === undefined) await embed(['dimension probe']);
      return { provider: 'local', model, dims: dims! };
    },
    embed: (texts) => embed(texts),
  };
}
