import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { EmbedderUnavailableError } from '../errors';
import type { Embedder, EmbedderIdentity, EmbedPurpose } from './types';
import { batches, checkVectors } from './vectors';

/** The body Keel sends to `POST {TELEMETRY_URL}/v1/kb/embed` (documented in docs/knowledge-hub.md). */
export const TelemetryEmbedRequestSchema = z.strictObject({
  provider: z.string().min(1),
  model: z.string().min(1).optional(),
  purpose: z.enum(['document', 'query']),
  input: z.array(z.string()).min(1).max(64),
});
export type TelemetryEmbedRequest = z.infer<typeof TelemetryEmbedRequestSchema>;

/** The telemetry service's answer: which model embedded, its dimensions, one vector per input in order. */
export const TelemetryEmbedResponseSchema = z.object({
  model: z.string().min(1),
  dimensions: z.number().int().min(1).max(16_000),
  embeddings: z.array(z.array(z.number())),
});

/** Inputs per request; a larger call is split into several. */
const BATCH = 64;

export interface TelemetryEmbedderOptions {
  baseUrl: string;
  provider: string;
  model?: string;
  token?: string;
  timeoutMs: number;
  retries: number;
  /** Wait before retry n (0-based); 250 ms doubling by default. */
  backoffMs?: (attempt: number) => number;
}

/**
 * A hosted provider reached through the telemetry service, which holds the provider key: Keel holds none. Each
 * request has its own timeout; timeouts, refused connections, 408, 429 and 5xx are retried, other 4xx are not.
 */
export function createTelemetryEmbedder(options: TelemetryEmbedderOptions): Embedder {
  const url = new URL('/v1/kb/embed', options.baseUrl).toString();
  const backoff = options.backoffMs ?? ((attempt) => 250 * 2 ** attempt);
  let known: EmbedderIdentity | undefined;

  async function post(body: TelemetryEmbedRequest): Promise<z.infer<typeof TelemetryEmbedResponseSchema>> {
    let lastProblem = '';
    for (let attempt = 0; attempt <= options.retries; attempt += 1) {
      if (attempt > 0) await delay(backoff(attempt - 1));
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (err) {
        const timedOut = (err as Error).name === 'TimeoutError';
        lastProblem = timedOut ? `no answer within ${options.timeoutMs} ms` : `unreachable (${causeOf(err)})`;
        continue;
      }
      if (response.ok) {
        let json: unknown;
        try {
          json = await response.json();
        } catch {
          throw new EmbedderUnavailableError(`the telemetry embedder at ${url} answered with a body that is not JSON`);
        }
        const parsed = TelemetryEmbedResponseSchema.safeParse(json);
        if (!parsed.success) {
          throw new EmbedderUnavailableError(
            `the telemetry embedder at ${url} answered an unexpected body: ${parsed.error.issues[0]?.message}`,
          );
        }
        return parsed.data;
      }
      const detail = (await response.text().catch(() => '')).slice(0, 200);
      lastProblem = `HTTP ${response.status}${detail ? `: ${detail}` : ''}`;
      const retryable = response.status === 408 || response.status === 429 || response.status >= 500;
      if (!retryable) break;
    }
    throw new EmbedderUnavailableError(
      `the telemetry embedder at ${url} failed after ${options.retries + 1} attempt(s): ${lastProblem}`,
    );
  }

  async function embed(texts: readonly string[], purpose: EmbedPurpose): Promise<number[][]> {
    const out: number[][] = [];
    for (const batch of batches(texts, BATCH)) {
      const answer = await post({ provider: options.provider, model: options.model, purpose, input: batch });
      const source = `the telemetry embedder (${options.provider}/${answer.model})`;
      checkVectors(source, answer.embeddings, batch.length, answer.dimensions);
      const identity = { provider: options.provider, model: answer.model, dims: answer.dimensions };
      if (known && (known.model !== identity.model || known.dims !== identity.dims)) {
        throw new EmbedderUnavailableError(
          `${source} changed model or dimensions mid-run (was ${known.model}, ${known.dims} dimensions)`,
        );
      }
      known = identity;
      out.push(...answer.embeddings);
    }
    return out;
  }

  return {
    async identity() {
      if (!known) await embed(['dimension probe'], 'query');
      return known!;
    },
    embed,
  };
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}
