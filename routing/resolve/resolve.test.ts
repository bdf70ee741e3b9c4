import type { Candidate, Catalog, LevelRouting, ModelRow, TeamControls } from '../catalog/types';
import { resolveCandidates } from './resolve';

/** A small inline catalog: prices per 1k are input + output as noted, so band orders can be read off. */
const models: ModelRow[] = [
  {
    provider: 'openai',
    model: 'gpt-5',
    wire: 'chat_compat',
    features: ['tool_use', 'reasoning', 'vision', 'streaming'],
    cost_tier: 'frontier',
    pricing_per_1k: { input: 0.00125, output: 0.01 }, // 0.01125
    context_tokens: 400_000,
    max_output_tokens: 128_000,
    effort: {
      low: { reasoning_effort: 'low' },
      medium: { reasoning_effort: 'medium' },
      high: { reasoning_effort: 'high' },
    },
  },
  {
    provider: 'openai',
    model: 'gpt-5-mini',
    wire: 'chat_compat',
    features: ['tool_use', 'reasoning', 'vision'],
    cost_tier: 'mid',
    pricing_per_1k: { input: 0.00025, output: 0.002 }, // 0.00225
    context_tokens: 400_000,
    max_output_tokens: 128_000,
    effort: {
      low: { reasoning_effort: 'low' },
      medium: { reasoning_effort: 'medium' },
      high: { reasoning_effort: 'high' },
    },
  },
  {
    provider: 'openai',
    model: 'gpt-4o-mini',
    wire: 'chat_compat',
    features: ['tool_use', 'json_mode', 'streaming'],
    cost_tier: 'cheap',
    pricing_per_1k: { input: 0.00015, output: 0.0006 }, // 0.00075
    context_tokens: 128_000,
    max_output_tokens: 16_384,
  },
  {
    provider: 'openai',
    model: 'text-embedding-3-small',
    wire: 'chat_compat',
    features: ['embedding'],
    cost_tier: 'cheap',
    pricing_per_1k: { input: 0.00002, output: 0 },
    context_tokens: 8_191,
    max_output_tokens: 0,
    dimensions: 1536,
  },
  {
    provider: 'anthropic',
    model: 'claude-opus',
    wire: 'vendor_a',
    features: ['tool_use', 'reasoning', 'vision'],
    cost_tier: 'frontier',
    pricing_per_1k: { input: 0.015, output: 0.075 }, // 0.09
    context_tokens: 200_000,
    max_output_tokens: 64_000,
    effort: {
      low: { thinking: { type: 'enabled', budget_tokens: 2_048 } },
      medium: { thinking: { type: 'enabled', budget_tokens: 8_192 } },
      high: { thinking: { type: 'enabled', budget_tokens: 16_000 } },
      max: { thinking: { type: 'enabled', budget_tokens: 32_000 } },
    },
  },
  {
    provider: 'anthropic',
    model: 'claude-sonnet',
    wire: 'vendor_a',
    features: ['tool_use', 'reasoning', 'vision'],
    cost_tier: 'frontier',
    pricing_per_1k: { input: 0.003, output: 0.015 }, // 0.018
    context_tokens: 200_000,
    max_output_tokens: 64_000,
    effort: {
      low: { thinking: { type: 'enabled', budget_tokens: 2_048 } },
      high: { thinking: { type: 'enabled', budget_tokens: 16_000 } },
      max: { thinking: { type: 'enabled', budget_tokens: 32_000 } },
    },
  },
  {
    provider: 'anthropic',
    model: 'claude-haiku',
    wire: 'vendor_a',
    features: ['tool_use', 'reasoning'],
    cost_tier: 'cheap',
    pricing_per_1k: { input: 0.0008, output: 0.004 }, // 0.0048
    context_tokens: 200_000,
    max_output_tokens: 8_192,
    effort: {
      low: { thinking: { type: 'enabled', budget_tokens: 1_024 } },
      medium: { thinking: { type: 'enabled', budget_tokens: 4_096 } },
    },
  },
  {
    provider: 'google',
    model: 'gemini-flash',
    wire: 'vendor_b',
    features: ['tool_use', 'reasoning', 'vision'],
    cost_tier: 'cheap',
    pricing_per_1k: { input: 0.0003, output: 0.0025 }, // 0.0028
    context_tokens: 1_000_000,
    max_output_tokens: 65_536,
    effort: {
      none: { thinkingConfig: { thinkingBudget: 0 } },
      low: { thinkingConfig: { thinkingBudget: 1_024 } },
      high: { thinkingConfig: { thinkingBudget: 24_576 } },
    },
  },
  {
    provider: 'google',
    model: 'gemma-free',
    wire: 'vendor_b',
    features: ['tool_use'],
    cost_tier: 'free',
    context_tokens: 32_000,
    max_output_tokens: 8_192,
    quota: { rpm: 30, tpm: 15_000, rpd: 14_400 },
  },
  {
    provider: 'mistral',
    model: 'mistral-large',
    wire: 'chat_compat',
    features: ['tool_use'],
    cost_tier: 'mid',
    pricing_per_1k: { input: 0.002, output: 0.006 }, // 0.008
    context_tokens: 128_000,
    max_output_tokens: 32_000,
  },
  {
    provider: 'openrouter',
    model: 'meta-llama/llama-3.3-70b-instruct:free',
    wire: 'chat_compat',
    features: ['tool_use'],
    cost_tier: 'free',
    context_tokens: 128_000,
    max_output_tokens: 8_192,
    quota: { rpm: 20, tpm: 100_000, rpd: 200 },
  },
];

const catalog: Catalog = {
  providers: {
    openai: { wire: 'chat_compat', base_url: 'https://api.openai.com/v1', auth: { env: 'OPENAI_API_KEY' } },
    anthropic: { wire: 'vendor_a', base_url: 'https://api.anthropic.com', auth: { env: 'ANTHROPIC_API_KEY' } },
    google: { wire: 'vendor_b', base_url: 'https://generativelanguage.googleapis.com', auth: { env: 'GEMINI_KEY' } },
    mistral: { wire: 'chat_compat', base_url: 'https://api.mistral.ai/v1', auth: { env: 'MISTRAL_API_KEY' } },
    openrouter: { wire: 'chat_compat', base_url: 'https://openrouter.ai/api/v1', auth: { env: 'OPENROUTER_KEY' } },
  },
  models,
};

const everyone: TeamControls = {
  providers: { openai: {}, anthropic: {}, google: {}, mistral: {}, openrouter: {} },
};

const ids = (candidates: Candidate[]): string[] => candidates.map((c) => `${c.provider}/${c.model}`);
const resolve = (level: LevelRouting, controls: TeamControls = everyone) => resolveCandidates(catalog, controls, level);

describe('resolveCandidates', () => {
  it('resolution returns the whole ordered band', () => {
    const resolution = resolve({ role: 'L2.architect', budget: 'frontier' });
    expect(resolution.band).toEqual(['frontier', 'mid']);
    expect(resolution.bandDropped).toBe(false);
    expect(resolution.notes).toEqual([]);
    // Five band models strongest first (tier, then price descending), then the listed providers' other models.
    expect(resolution.candidates).toEqual([
      { provider: 'anthropic', model: 'claude-opus', tier: 'frontier', source: 'band' },
      { provider: 'anthropic', model: 'claude-sonnet', tier: 'frontier', source: 'band' },
      { provider: 'openai', model: 'gpt-5', tier: 'frontier', source: 'band' },
      { provider: 'mistral', model: 'mistral-large', tier: 'mid', source: 'band' },
      { provider: 'openai', model: 'gpt-5-mini', tier: 'mid', source: 'band' },
      { provider: 'anthropic', model: 'claude-haiku', tier: 'cheap', source: 'provider_default' },
      { provider: 'openai', model: 'gpt-4o-mini', tier: 'cheap', source: 'provider_default' },
    ]);
  });

  it('band rule 1: a band led by frontier selects the strongest model, price breaking ties', () => {
    const { candidates } = resolve({ role: 'L4.executor', budget: 'frontier' });
    expect(ids(candidates.filter((c) => c.source === 'band')).slice(0, 3)).toEqual([
      'anthropic/claude-opus',
      'anthropic/claude-sonnet',
      'openai/gpt-5',
    ]);
  });

  it('band rule 2: a band led by cheap selects the cheapest', () => {
    // Budget absent: cheap.
    const { band, candidates } = resolve({ role: 'L4.executor' });
    expect(band).toEqual(['cheap']);
    expect(ids(candidates)).toEqual([
      'openai/gpt-4o-mini',
      'google/gemini-flash',
      'anthropic/claude-haiku',
      // Provider defaults, cheapest first too; google's free model is not one (free rule).
      'openai/gpt-5-mini',
      'openai/gpt-5',
      'anthropic/claude-sonnet',
      'anthropic/claude-opus',
    ]);
    expect(candidates.slice(3).every((c) => c.source === 'provider_default')).toBe(true);
  });

  it('band rule 3: an unknown tier or role means no preference and never raises', () => {
    const unknownBudget = resolve({ role: 'L2.architect', budget: 'platinum' });
    expect(unknownBudget.band).toBeNull();
    expect(unknownBudget.bandDropped).toBe(false);
    expect(unknownBudget.notes).toEqual([expect.stringContaining("unknown budget 'platinum'")]);
    // No preference: every admitted (non-free) chat model, cheapest first.
    expect(ids(unknownBudget.candidates)).toEqual([
      'openai/gpt-4o-mini',
      'google/gemini-flash',
      'anthropic/claude-haiku',
      'openai/gpt-5-mini',
      'mistral/mistral-large',
      'openai/gpt-5',
      'anthropic/claude-sonnet',
      'anthropic/claude-opus',
    ]);
    const unknownRole = resolve({ role: 'janitor', budget: 'frontier' });
    expect(unknownRole.band).toBeNull();
    expect(unknownRole.notes).toEqual([expect.stringContaining("role 'janitor' has no L1.–L4. prefix")]);
    expect(unknownRole.candidates).toHaveLength(8);
  });

  it('band rule 4: nothing surviving the band drops it with a log line', () => {
    // fast_cheap admits only free/cheap tiers; the frontier L2 band is frontier+mid.
    const resolution = resolve({ role: 'L2.architect', budget: 'frontier', requirements: ['fast_cheap'] });
    expect(resolution.band).toEqual(['frontier', 'mid']);
    expect(resolution.bandDropped).toBe(true);
    expect(resolution.notes).toEqual([
      'L2.architect: band frontier+mid at budget frontier dropped: no model meeting [fast_cheap] is in it',
    ]);
    // The dropped band's direction survives: strongest first, cheap before free.
    expect(ids(resolution.candidates)).toEqual([
      'anthropic/claude-haiku',
      'google/gemini-flash',
      'openai/gpt-4o-mini',
      'google/gemma-free',
      'openrouter/meta-llama/llama-3.3-70b-instruct:free',
    ]);
    // fast_cheap's default rung is none: only the model with an explicit off switch gets a fragment.
    expect(resolution.candidates.every((c) => c.requested_effort === 'none')).toBe(true);
    expect(resolution.candidates.filter((c) => c.effort !== undefined)).toEqual([
      expect.objectContaining({ model: 'gemini-flash', effort: 'none' }),
    ]);
  });

  it('band rule 4: a band that something survives is kept', () => {
    const resolution = resolve({ role: 'L4.executor', requirements: ['multimodal', 'long_context'] });
    expect(resolution.bandDropped).toBe(false);
    expect(ids(resolution.candidates)[0]).toBe('google/gemini-flash');
  });

  it('band rule 5: an explicit pin is never narrowed by the band', () => {
    const resolution = resolve({
      role: 'L2.architect',
      budget: 'frontier',
      pins: ['gpt-4o-mini', 'google/gemini-flash@low'],
    });
    // Both pins are cheap, outside frontier+mid; they stay, in pin order, and nothing else is added.
    expect(resolution.candidates).toEqual([
      { provider: 'openai', model: 'gpt-4o-mini', tier: 'cheap', source: 'pin' },
      {
        provider: 'google',
        model: 'gemini-flash',
        tier: 'cheap',
        source: 'pin',
        effort: 'low',
        requested_effort: 'low',
      },
    ]);
    expect(resolution.bandDropped).toBe(false);
    expect(resolution.notes).toEqual([]);
  });

  it('a glob pin expands in the band order within the pattern', () => {
    const { candidates } = resolve({ role: 'L2.architect', budget: 'frontier', pins: ['anthropic/*', 'gpt-5'] });
    expect(ids(candidates)).toEqual([
      'anthropic/claude-opus',
      'anthropic/claude-sonnet',
      'anthropic/claude-haiku',
      'openai/gpt-5',
    ]);
  });

  it('a pin lacking a required capability is refused with a note naming model and feature', () => {
    const resolution = resolve({
      role: 'L4.executor',
      requirements: ['multimodal'],
      pins: ['openai/gpt-4o-mini', 'openai/gpt-5-mini'],
    });
    expect(ids(resolution.candidates)).toEqual(['openai/gpt-5-mini']);
    expect(resolution.notes).toEqual([
      "L4.executor: pin 'openai/gpt-4o-mini' refused: openai/gpt-4o-mini lacks feature vision required by multimodal",
    ]);
  });

  it('pins that admit nothing leave an empty list and a note, not the band', () => {
    const resolution = resolve({ role: 'L4.executor', pins: ['nobody/nothing', 'text-embedding-3-small'] });
    expect(resolution.candidates).toEqual([]);
    expect(resolution.notes).toEqual([
      "L4.executor: pin 'nobody/nothing' matches no chat model in the catalog",
      "L4.executor: pin 'text-embedding-3-small' matches no chat model in the catalog",
      'L4.executor: no pinned model is usable; the pins admit no candidate',
    ]);
  });

  it('embedding models are never candidates', () => {
    const { candidates } = resolve({ role: 'L1.team_lead', budget: 'cheap' });
    expect(ids(candidates)).not.toContain('openai/text-embedding-3-small');
  });

  it('cheap is not excluded from high_reasoning', () => {
    const resolution = resolve({ role: 'L3.verifier', budget: 'cheap', requirements: ['high_reasoning'] });
    // gemini-flash is cheap and its ladder reaches high; haiku tops out at medium; gpt-4o-mini does not reason.
    expect(resolution.bandDropped).toBe(false);
    expect(resolution.candidates[0]).toEqual({
      provider: 'google',
      model: 'gemini-flash',
      tier: 'cheap',
      source: 'band',
      requested_effort: 'high',
      effort: 'high',
    });
    expect(ids(resolution.candidates)).not.toContain('anthropic/claude-haiku');
    expect(ids(resolution.candidates)).not.toContain('openai/gpt-4o-mini');
  });

  it('requirements are matched before price', () => {
    // The cheaper mid model mistral-large lacks vision and the long context, so it is not reached at all.
    const { candidates } = resolve({
      role: 'L4.executor',
      budget: 'frontier',
      requirements: ['long_context', 'multimodal'],
    });
    expect(ids(candidates)).toEqual([
      'anthropic/claude-opus',
      'anthropic/claude-sonnet',
      'openai/gpt-5',
      'openai/gpt-5-mini',
    ]);
  });

  it('free appears only under fast_cheap', () => {
    const freeIds = ['google/gemma-free', 'openrouter/meta-llama/llama-3.3-70b-instruct:free'];
    for (const budget of ['cheap', 'frontier', undefined]) {
      for (const role of ['L1.team_lead', 'L2.architect', 'L3.verifier', 'L4.executor']) {
        const { candidates } = resolve({ role, budget, requirements: ['code_generation'] });
        expect(ids(candidates).filter((id) => freeIds.includes(id))).toEqual([]);
      }
    }
    // Under fast_cheap google's free model follows its cheap one as a provider default (openrouter is not listed).
    const fast = resolve({ role: 'L4.executor', budget: 'cheap', requirements: ['fast_cheap'] });
    expect(fast.candidates.at(-1)).toEqual(
      expect.objectContaining({ model: 'gemma-free', tier: 'free', source: 'provider_default' }),
    );
  });

  it('the free budget admits free models without fast_cheap, its band being free', () => {
    const resolution = resolve({ role: 'L4.executor', budget: 'free', requirements: ['code_generation'] });
    expect(resolution.bandDropped).toBe(false);
    expect(ids(resolution.candidates).slice(0, 2)).toEqual([
      'google/gemma-free',
      'openrouter/meta-llama/llama-3.3-70b-instruct:free',
    ]);
    expect(resolution.candidates.slice(0, 2).every((c) => c.source === 'band')).toBe(true);
  });

  it('an exactly named free pin is admitted; a glob pin does not pull in free models', () => {
    const exact = resolve({ role: 'L4.executor', pins: ['openrouter/meta-llama/llama-3.3-70b-instruct:free'] });
    expect(ids(exact.candidates)).toEqual(['openrouter/meta-llama/llama-3.3-70b-instruct:free']);
    // A bare model id containing a slash is not mistaken for provider/model.
    const bare = resolve({ role: 'L4.executor', pins: ['meta-llama/llama-3.3-70b-instruct:free'] });
    expect(ids(bare.candidates)).toEqual(['openrouter/meta-llama/llama-3.3-70b-instruct:free']);
    const glob = resolve({ role: 'L4.executor', pins: ['openrouter/*', 'google/*'] });
    expect(ids(glob.candidates)).toEqual(['google/gemini-flash']);
  });

  it('provider defaults respect the free rule', () => {
    const { candidates } = resolve({ role: 'L1.team_lead', budget: 'cheap' });
    expect(candidates.filter((c) => c.source === 'provider_default').every((c) => c.tier !== 'free')).toBe(true);
    expect(ids(candidates)).not.toContain('google/gemma-free');
  });

  it('team controls: an omitted provider disappears without an error', () => {
    const controls: TeamControls = { providers: { openai: {}, google: {}, mistral: {} } };
    const resolution = resolve(
      { role: 'L2.architect', budget: 'frontier', fallbacks: ['anthropic/claude-opus'] },
      controls,
    );
    expect(ids(resolution.candidates)).toEqual([
      'openai/gpt-5',
      'mistral/mistral-large',
      'openai/gpt-5-mini',
      'openai/gpt-4o-mini',
    ]);
    expect(resolution.notes).toEqual([]);
  });

  it('team controls: model globs narrow a provider, and an absent list allows all its models', () => {
    const controls: TeamControls = { providers: { openai: { models: ['gpt-5*'] }, google: {} } };
    // gpt-4o-mini is not even a provider default; google, without a list, keeps its (non-free) models.
    expect(ids(resolve({ role: 'L4.executor', budget: 'frontier' }, controls).candidates)).toEqual([
      'openai/gpt-5',
      'openai/gpt-5-mini',
    ]);
    expect(ids(resolve({ role: 'L4.executor', budget: 'cheap' }, controls).candidates)).toEqual([
      'google/gemini-flash',
    ]);
  });

  it('scenario fallback entries are appended', () => {
    const controls: TeamControls = { providers: { openai: {}, anthropic: {}, google: {} } };
    const resolution = resolve(
      {
        role: 'L4.executor',
        budget: 'cheap',
        fallbacks: ['anthropic/claude-sonnet@max', 'openai/gpt-4o-mini', 'mistral/mistral-large', 'nobody/nothing'],
      },
      controls,
    );
    expect(resolution.candidates.slice(0, 4)).toEqual([
      { provider: 'openai', model: 'gpt-4o-mini', tier: 'cheap', source: 'band' },
      { provider: 'google', model: 'gemini-flash', tier: 'cheap', source: 'band' },
      { provider: 'anthropic', model: 'claude-haiku', tier: 'cheap', source: 'band' },
      // Already-listed gpt-4o-mini and controls-blocked mistral are skipped silently.
      {
        provider: 'anthropic',
        model: 'claude-sonnet',
        tier: 'frontier',
        source: 'fallback',
        requested_effort: 'max',
        effort: 'max',
      },
    ]);
    expect(ids(resolution.candidates.slice(4))).toEqual(['openai/gpt-5-mini', 'openai/gpt-5', 'anthropic/claude-opus']);
    expect(resolution.notes).toEqual(["L4.executor: fallback 'nobody/nothing' matches no chat model in the catalog"]);
  });

  it('fallbacks are appended to pins too, but provider defaults are not', () => {
    const { candidates } = resolve({ role: 'L4.executor', pins: ['gpt-5-mini'], fallbacks: ['mistral-large'] });
    expect(candidates.map((c) => [c.model, c.source])).toEqual([
      ['gpt-5-mini', 'pin'],
      ['mistral-large', 'fallback'],
    ]);
  });

  it('precedence: level constraint over @rung over tier default', () => {
    const level: LevelRouting = {
      role: 'L2.architect',
      budget: 'frontier',
      requirements: ['high_reasoning'],
      pins: ['anthropic/claude-opus@max', 'openai/gpt-5'],
    };
    expect(resolve(level).candidates.map((c) => [c.model, c.requested_effort, c.effort])).toEqual([
      ['claude-opus', 'max', 'max'],
      ['gpt-5', 'high', 'high'],
    ]);
    expect(resolve({ ...level, effort: 'low' }).candidates.map((c) => [c.requested_effort, c.effort])).toEqual([
      ['low', 'low'],
      ['low', 'low'],
    ]);
  });

  it('a missing rung rounds up per candidate', () => {
    const { candidates } = resolve({
      role: 'L2.architect',
      budget: 'frontier',
      effort: 'medium',
      pins: ['claude-sonnet'],
    });
    expect(candidates).toEqual([
      expect.objectContaining({ model: 'claude-sonnet', requested_effort: 'medium', effort: 'high' }),
    ]);
  });

  it('effort on a non-reasoning model is dropped and logged', () => {
    const resolution = resolve({ role: 'L4.executor', budget: 'cheap', effort: 'medium' });
    expect(resolution.candidates[0]).toEqual({
      provider: 'openai',
      model: 'gpt-4o-mini',
      tier: 'cheap',
      source: 'band',
      requested_effort: 'medium',
    });
    expect(resolution.notes).toContain(
      'L4.executor: effort medium dropped for openai/gpt-4o-mini: it is not a reasoning model',
    );
  });

  it('an unknown requirement is noted and ignored', () => {
    const resolution = resolve({ role: 'L4.executor', requirements: ['telepathy'] });
    expect(resolution.notes).toEqual([expect.stringContaining("unknown requirement 'telepathy' ignored")]);
    expect(ids(resolution.candidates)[0]).toBe('openai/gpt-4o-mini');
  });

  it('an @ that is not a rung stays part of the model id', () => {
    const vertex: ModelRow = { ...models[5]!, provider: 'vertex', model: 'claude-sonnet@20250514', wire: 'vendor_a' };
    const withVertex: Catalog = { providers: catalog.providers, models: [...models, vertex] };
    const { candidates, notes } = resolveCandidates(
      withVertex,
      { providers: { vertex: {} } },
      {
        role: 'L2.architect',
        pins: ['vertex/claude-sonnet@20250514@low'],
      },
    );
    expect(notes).toEqual([]);
    expect(candidates).toEqual([
      {
        provider: 'vertex',
        model: 'claude-sonnet@20250514',
        tier: 'frontier',
        source: 'pin',
        requested_effort: 'low',
        effort: 'low',
      },
    ]);
  });

  it('is pure: the catalog and controls are left as they were', () => {
    const before = JSON.stringify({ catalog, everyone });
    resolve({ role: 'L2.architect', budget: 'frontier', requirements: ['high_reasoning'], fallbacks: ['gpt-4o-mini'] });
    expect(JSON.stringify({ catalog, everyone })).toBe(before);
  });
});
