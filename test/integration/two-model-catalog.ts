import type { Catalog } from '../../routing/catalog/types';

/**
 * One keyed provider (`alpha`, key from `ALPHA_KEY`) with two models at `baseUrl`, the first preferred: every level's
 * candidates are the two, so a failure of the first falls back to the second. A fake vendor in front of the demo
 * model answers both (the demo model accepts any model name). Offline, a level would have the demo model alone.
 */
export function twoModelCatalog(baseUrl: string, first: string, second: string): Catalog {
  const row = (model: string, preference: number) => ({
    provider: 'alpha',
    model,
    wire: 'chat_compat' as const,
    features: ['tool_use' as const, 'streaming' as const],
    cost_tier: 'cheap' as const,
    pricing_per_1k: { input: 0.001, output: 0.002 },
    context_tokens: 200_000,
    max_output_tokens: 8192,
    preference,
  });
  return {
    providers: { alpha: { wire: 'chat_compat', base_url: baseUrl, auth: { env: 'ALPHA_KEY' } } },
    models: [row(first, 1), row(second, 2)],
  };
}
