import path from 'node:path';
import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';

/** A hosted provider name the telemetry service understands, or `local` (a local server, else the offline embedder). */
const PROVIDER = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'a provider name such as openai, or local')
  .max(64);

/** The knowledge hub's settings, shared by the API, `npm start` and `keel kb …`. */
export const kbEnv = z.object({
  /** `local` (default): LOCAL_EMBEDDING_URL if set, else the built-in offline embedder. Any other value is a hosted provider reached through the telemetry service. */
  EMBEDDING_PROVIDER: z.preprocess(emptyAsUndefined, PROVIDER.default('local')),
  /** The model a hosted or local provider should use; each has its own default (see docs/knowledge-hub.md). */
  EMBEDDING_MODEL: z.preprocess(emptyAsUndefined, z.string().min(1).max(200).optional()),
  /** Base URL of the telemetry service; required when EMBEDDING_PROVIDER names a hosted provider. */
  TELEMETRY_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** Bearer token sent to the telemetry service (not a provider key: the ingest service holds none). */
  TELEMETRY_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** Base URL of an OpenAI-compatible local inference server, e.g. http://127.0.0.1:11434/v1 (Ollama). */
  LOCAL_EMBEDDING_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** Per-attempt timeout of an embed request (ms). */
  KB_EMBED_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Retries after a failed embed request (timeouts, 429, 5xx, refused connections); 4xx are not retried. */
  KB_EMBED_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** The hub working directory; default DATA_DIR/hub. */
  KB_HUB_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** A separate PostgreSQL for the knowledge index, for when POSTGRES_DSN's server lacks pgvector. */
  KB_INDEX_DSN: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** Connections of the KB_INDEX_DSN pool; 1 for a server that serves one session, such as an embedded PGlite. */
  KB_INDEX_POOL_MAX: z.coerce.number().int().min(1).max(100).default(5),
});
export type KbEnv = z.infer<typeof kbEnv>;

/** The knowledge hub's slice of a process's config: its variables, and a hosted provider only with the telemetry service. */
export const kbSettings = kbEnv.superRefine((value, ctx) => {
  if (value.EMBEDDING_PROVIDER !== 'local' && !value.TELEMETRY_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['TELEMETRY_URL'],
      message: `required when EMBEDDING_PROVIDER=${value.EMBEDDING_PROVIDER} (a hosted provider is reached through the telemetry service); or set EMBEDDING_PROVIDER=local`,
    });
  }
});

/** KB_HUB_DIR, else DATA_DIR/hub, absolute. */
export function hubDirOf(env: KbEnv, dataDir: string): string {
  return path.resolve(env.KB_HUB_DIR ?? path.join(dataDir, 'hub'));
}
