import type { ModelRow } from '../catalog/types';
import { REQUIREMENTS } from '../catalog/types';
import { REQUIREMENT_RULES, costRefusal, freeAdmitted, missingCapability, parseRequirements } from './requirements';

function model(overrides: Partial<ModelRow>): ModelRow {
  return {
    provider: 'openai',
    model: 'gpt-4o-mini',
    wire: 'chat_compat',
    features: ['tool_use', 'json_mode', 'streaming'],
    cost_tier: 'cheap',
    pricing_per_1k: { input: 0.00015, output: 0.0006 },
    context_tokens: 128_000,
    max_output_tokens: 16_384,
    ...overrides,
  };
}

const mini = model({});
const flash = model({
  provider: 'google',
  model: 'gemini-flash',
  wire: 'vendor_b',
  features: ['tool_use', 'reasoning', 'vision'],
  context_tokens: 1_000_000,
  effort: { none: { thinking_budget: 0 }, low: { thinking_budget: 1024 }, max: { thinking_budget: 24_576 } },
});
const lowCeiling = model({
  provider: 'anthropic',
  model: 'haiku',
  wire: 'vendor_a',
  features: ['tool_use', 'reasoning'],
  context_tokens: 200_000,
  effort: { low: { thinking: { budget_tokens: 1024 } }, medium: { thinking: { budget_tokens: 4096 } } },
});
const freeModel = model({
  provider: 'openrouter',
  model: 'meta-llama/llama-3.3-70b-instruct:free',
  cost_tier: 'free',
  pricing_per_1k: undefined,
  quota: { rpm: 20, tpm: 100_000, rpd: 200 },
});

describe('requirement table', () => {
  it('has one rule per requirement name', () => {
    expect(Object.keys(REQUIREMENT_RULES).sort()).toEqual([...REQUIREMENTS].sort());
  });

  it('long_context requires a context of at least 200000', () => {
    expect(missingCapability(mini, 'long_context')).toBe(
      'openai/gpt-4o-mini has context 128000, below the 200000 required by long_context',
    );
    expect(missingCapability(lowCeiling, 'long_context')).toBeUndefined();
  });

  it('high_reasoning requires feature reasoning and a ladder that serves high', () => {
    expect(missingCapability(mini, 'high_reasoning')).toBe(
      'openai/gpt-4o-mini lacks feature reasoning required by high_reasoning',
    );
    // Its ladder tops out at medium: asking for high would fall to the ceiling.
    expect(missingCapability(lowCeiling, 'high_reasoning')).toBe(
      'anthropic/haiku has no effort rung at or above high required by high_reasoning',
    );
    // No high entry, but high rounds up to max.
    expect(missingCapability(flash, 'high_reasoning')).toBeUndefined();
    // Reasoning without an effort map cannot be asked for high.
    expect(missingCapability(model({ features: ['reasoning'] }), 'high_reasoning')).toMatch(/no effort rung/);
  });

  it('cheap is not excluded from high_reasoning', () => {
    expect(flash.cost_tier).toBe('cheap');
    expect(missingCapability(flash, 'high_reasoning')).toBeUndefined();
    expect(costRefusal(flash, ['high_reasoning'], 'frontier')).toBeUndefined();
  });

  it('code_generation requires feature tool_use', () => {
    expect(missingCapability(model({ features: ['streaming'] }), 'code_generation')).toBe(
      'openai/gpt-4o-mini lacks feature tool_use required by code_generation',
    );
    expect(missingCapability(mini, 'code_generation')).toBeUndefined();
  });

  it('multimodal requires feature vision', () => {
    expect(missingCapability(mini, 'multimodal')).toBe(
      'openai/gpt-4o-mini lacks feature vision required by multimodal',
    );
    expect(missingCapability(flash, 'multimodal')).toBeUndefined();
  });

  it('fast_cheap admits only the free and cheap cost tiers', () => {
    expect(costRefusal(model({ cost_tier: 'mid' }), ['fast_cheap'], undefined)).toBe(
      'openai/gpt-4o-mini is tier mid, outside free/cheap required by fast_cheap',
    );
    expect(costRefusal(mini, ['fast_cheap'], undefined)).toBeUndefined();
    expect(costRefusal(freeModel, ['fast_cheap'], undefined)).toBeUndefined();
    // Its effort none is a default rung, not a capability: every model can be sent no fragment.
    expect(missingCapability(model({ cost_tier: 'mid' }), 'fast_cheap')).toBeUndefined();
  });

  it('free appears only under fast_cheap', () => {
    expect(costRefusal(freeModel, [], 'cheap')).toMatch(/free model, admitted only under fast_cheap/);
    expect(costRefusal(freeModel, ['code_generation'], 'frontier')).toBeDefined();
    expect(costRefusal(freeModel, ['code_generation', 'fast_cheap'], 'frontier')).toBeUndefined();
    expect(freeAdmitted(['fast_cheap'], 'cheap')).toBe(true);
    expect(freeAdmitted([], undefined)).toBe(false);
  });

  it('the free budget admits free models without fast_cheap, its band being free', () => {
    expect(freeAdmitted([], 'free')).toBe(true);
    expect(costRefusal(freeModel, ['code_generation'], 'free')).toBeUndefined();
  });

  it('an unknown requirement name is noted and ignored', () => {
    expect(missingCapability(mini, 'telepathy')).toBeUndefined();
    expect(parseRequirements(['multimodal', 'telepathy', 'multimodal'])).toEqual({
      requirements: ['multimodal'],
      notes: [expect.stringContaining("unknown requirement 'telepathy' ignored")],
    });
    expect(parseRequirements(undefined)).toEqual({ requirements: [], notes: [] });
  });
});
