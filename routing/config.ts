import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUndefined, schema.optional());

/**
 * Interim single-provider settings until the model catalog lands: one OpenAI-compatible endpoint
 * (OpenAI, OpenRouter, Groq, DeepSeek, or a local server such as Ollama). With none set, every
 * level uses the built-in offline demo model.
 */
export const modelEnv = z.object({
  CHAT_COMPAT_BASE_URL: optional(z.url()),
  CHAT_COMPAT_API_KEY: optional(z.string()),
  CHAT_COMPAT_MODEL: optional(z.string().min(1)),
  /** A name for the provider in events and GET /v1/models. */
  CHAT_COMPAT_PROVIDER: z.string().min(1).default('chat_compat'),
  CHAT_COMPAT_TIER: z.enum(['free', 'cheap', 'mid', 'frontier']).default('cheap'),
  /** Loopback port of the offline demo model; 0 picks a free one. */
  DEMO_MODEL_PORT: z.coerce.number().int().min(0).max(65535).default(0),
});
export type ModelEnv = z.infer<typeof modelEnv>;

export function configuredProvider(env: ModelEnv): ProviderEndpoint | undefined {
  if (!env.CHAT_COMPAT_BASE_URL) return undefined;
  return {
    provider: env.CHAT_COMPAT_PROVIDER,
    model: env.CHAT_COMPAT_MODEL ?? 'default',
    tier: env.CHAT_COMPAT_TIER,
    displayName: env.CHAT_COMPAT_MODEL ?? env.CHAT_COMPAT_PROVIDER,
    baseUrl: env.CHAT_COMPAT_BASE_URL,
    apiKey: env.CHAT_COMPAT_API_KEY ?? 'none',
  };
}

/** One chat_compat endpoint and the model Keel uses there. */
export interface ProviderEndpoint {
  provider: string;
  model: string;
  tier: string;
  displayName: string;
  baseUrl: string;
  apiKey: string;
}
