import type { KbEnv } from '../config';
import { createLocalEmbedder } from './local';
import { createOfflineEmbedder } from './offline';
import { createTelemetryEmbedder } from './telemetry';
import type { Embedder } from './types';

/** The embedder EMBEDDING_PROVIDER selects: hosted (via telemetry), a local server, or the offline embedder. */
export function createEmbedder(env: KbEnv): Embedder {
  const common = { timeoutMs: env.KB_EMBED_TIMEOUT_MS, retries: env.KB_EMBED_RETRIES };
  if (env.EMBEDDING_PROVIDER !== 'local') {
    if (!env.TELEMETRY_URL) throw new Error('TELEMETRY_URL is required for a hosted EMBEDDING_PROVIDER');
    return createTelemetryEmbedder({
      ...common,
      baseUrl: env.TELEMETRY_URL,
      provider: env.EMBEDDING_PROVIDER,
      model: env.EMBEDDING_MODEL,
      token: env.TELEMETRY_TOKEN,
    });
  }
  if (env.LOCAL_EMBEDDING_URL) {
    return createLocalEmbedder({ ...common, baseUrl: env.LOCAL_EMBEDDING_URL, model: env.EMBEDDING_MODEL });
  }
  return createOfflineEmbedder();
}
