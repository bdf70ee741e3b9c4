import { fallbackAfterWalk, fallbackAtRouting } from './provider-fallback';

const demo = { provider: 'demo', model: 'keel-demo', tier: 'free' };

test('a paid band nothing configured can serve is rerouted to the free demo model as a whole', () => {
  expect(fallbackAtRouting('L', { offline: true, band: ['cheap'], candidates: [demo] })).toEqual({
    level_id: 'L',
    from_band: ['cheap'],
    to_provider: 'demo',
    to_model: 'keel-demo',
    to_tier: 'free',
    reason: 'no_paid_provider_configured',
  });
  // A free budget was never paid, and a level routed normally was not rerouted.
  expect(fallbackAtRouting('L', { offline: true, band: ['free'], candidates: [demo] })).toBeUndefined();
  expect(fallbackAtRouting('L', { offline: false, band: ['cheap'], candidates: [demo] })).toBeUndefined();
});

test('after the walk: a paid intended model failed and a free one answered; per-hop walks within a tier are not it', () => {
  const paid = { provider: 'openai', model: 'gpt-4o-mini', tier: 'cheap' };
  const free = { provider: 'groq_free', model: 'llama', tier: 'free' };
  expect(fallbackAfterWalk('L', paid, free, [{ reason: 'unfunded' }])).toMatchObject({
    from_provider: 'openai',
    to_provider: 'groq_free',
    reason: 'unfunded',
  });
  expect(fallbackAfterWalk('L', paid, { ...paid, model: 'gpt-4o' }, [{ reason: 'http_500' }])).toBeUndefined();
  expect(fallbackAfterWalk('L', paid, paid, [])).toBeUndefined();
});
