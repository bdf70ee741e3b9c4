import type { ModelRow, Tier } from '../catalog/types';
import { bandFor, bandOrder, levelOf, orderModels } from './bands';

function model(name: string, tier: Tier, price: number, preference?: number): ModelRow {
  const row: ModelRow = {
    provider: 'p',
    model: name,
    wire: 'chat_compat',
    features: ['tool_use'],
    cost_tier: tier,
    context_tokens: 128_000,
    max_output_tokens: 8_192,
  };
  if (tier === 'free') row.quota = { rpm: 10, tpm: 10_000, rpd: 100 };
  else row.pricing_per_1k = { input: price / 2, output: price / 2 };
  if (preference !== undefined) row.preference = preference;
  return row;
}

const names = (models: ModelRow[]): string[] => models.map((m) => m.model);

describe('budget table', () => {
  const cells: [string | undefined, string, Tier[]][] = [
    ['free', 'L1.team_lead', ['free']],
    ['free', 'L2.architect', ['free']],
    ['free', 'L3.verifier', ['free']],
    ['free', 'L4.executor', ['free']],
    ['cheap', 'L1.team_lead', ['cheap']],
    ['cheap', 'L2.tech_lead', ['cheap']],
    ['cheap', 'L3.verifier', ['cheap']],
    ['cheap', 'L4.executor', ['cheap']],
    ['frontier', 'L1.team_lead', ['cheap']],
    ['frontier', 'L2.release_manager', ['frontier', 'mid']],
    ['frontier', 'L3.verifier', ['cheap']],
    ['frontier', 'L4.executor', ['frontier', 'mid']],
  ];
  it.each(cells)('budget %s, role %s → band %j', (budget, role, band) => {
    expect(bandFor(role, budget)).toEqual({ band });
  });

  it('an absent budget is cheap', () => {
    expect(bandFor('L2.architect', undefined)).toEqual({ band: ['cheap'] });
  });

  it('returns a copy, so a caller cannot change the table', () => {
    bandFor('L2.architect', 'frontier').band?.push('free');
    expect(bandFor('L2.architect', 'frontier').band).toEqual(['frontier', 'mid']);
  });
});

describe('band rules', () => {
  const catalog = [
    model('free-a', 'free', 0),
    model('cheap-pricey', 'cheap', 0.002),
    model('cheap-thrifty', 'cheap', 0.0005),
    model('mid-a', 'mid', 0.01),
    model('frontier-thrifty', 'frontier', 0.02),
    model('frontier-pricey', 'frontier', 0.09),
  ];

  it('band rule 1: a band led by frontier selects the strongest model, price breaking ties', () => {
    expect(bandOrder(['frontier', 'mid'])).toBe('strongest_first');
    expect(bandOrder(['mid'])).toBe('strongest_first');
    expect(names(orderModels(catalog, 'strongest_first'))).toEqual([
      'frontier-pricey',
      'frontier-thrifty',
      'mid-a',
      'cheap-pricey',
      'cheap-thrifty',
      'free-a',
    ]);
  });

  it('band rule 1: preference orders within a tier before price, unset last', () => {
    const tuned = [
      ...catalog,
      model('frontier-preferred', 'frontier', 0.01, 1),
      model('frontier-second', 'frontier', 0.5, 2),
    ];
    expect(names(orderModels(tuned, 'strongest_first')).slice(0, 4)).toEqual([
      'frontier-preferred',
      'frontier-second',
      'frontier-pricey',
      'frontier-thrifty',
    ]);
  });

  it('band rule 2: a band led by cheap or free selects the cheapest', () => {
    expect(bandOrder(['cheap'])).toBe('cheapest_first');
    expect(bandOrder(['free'])).toBe('cheapest_first');
    expect(names(orderModels(catalog, 'cheapest_first'))).toEqual([
      'free-a',
      'cheap-thrifty',
      'cheap-pricey',
      'mid-a',
      'frontier-thrifty',
      'frontier-pricey',
    ]);
    const tuned = [...catalog, model('cheap-preferred', 'cheap', 0.004, 1)];
    expect(names(orderModels(tuned, 'cheapest_first')).slice(1, 4)).toEqual([
      'cheap-preferred',
      'cheap-thrifty',
      'cheap-pricey',
    ]);
  });

  it('band rule 3: an unknown tier or role means no preference and never raises', () => {
    expect(bandFor('L4.executor', 'platinum')).toEqual({
      band: null,
      note: "unknown budget 'platinum' for L4.executor; no band, no tier preference",
    });
    expect(bandFor('L5.overlord', 'frontier')).toEqual({
      band: null,
      note: "role 'L5.overlord' has no L1.–L4. prefix; no band, no tier preference",
    });
    expect(bandFor('', 'frontier').band).toBeNull();
    expect(bandFor('L2.architect', '').band).toBeNull();
    // No band falls back to the default budget's cheapest-first order.
    expect(bandOrder(null)).toBe('cheapest_first');
  });

  it('reads the role prefix case-insensitively, with or without a role name', () => {
    expect(levelOf('l2.architect')).toBe('L2');
    expect(levelOf('L4')).toBe('L4');
    expect(levelOf('L12.x')).toBeUndefined();
    expect(levelOf('team_lead')).toBeUndefined();
  });

  it('keeps catalog order on a full tie', () => {
    const twins = [model('twin-b', 'mid', 0.01), model('twin-a', 'mid', 0.01)];
    expect(names(orderModels(twins, 'strongest_first'))).toEqual(['twin-b', 'twin-a']);
    expect(names(orderModels(twins, 'cheapest_first'))).toEqual(['twin-b', 'twin-a']);
  });
});
