import type { Candidate } from './catalog/types';
import { remainingAfter } from './walk-order';

const c = (provider: string, model: string, source: Candidate['source'] = 'band'): Candidate => ({
  provider,
  model,
  tier: 'frontier',
  source,
});

describe('the walk order after a failed request', () => {
  test('tries the next model on the same provider, then the band’s other providers, then provider defaults', () => {
    const failed = c('openai', 'o3');
    const remaining = [
      c('anthropic', 'claude-opus-4'),
      c('openai', 'gpt-4.1'),
      c('openai', 'gpt-4o-mini', 'provider_default'),
      c('google', 'gemini-2.5-pro'),
      c('google', 'gemini-2.5-flash', 'fallback'),
    ];
    expect(remainingAfter(failed, remaining).map((x) => `${x.provider}/${x.model}`)).toEqual([
      'openai/gpt-4.1',
      'anthropic/claude-opus-4',
      'google/gemini-2.5-pro',
      'google/gemini-2.5-flash',
      'openai/gpt-4o-mini',
    ]);
  });
});
