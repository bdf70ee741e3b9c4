import type { ModelRow } from '../catalog/types';
import { effectiveRung, resolveEffort } from './effort';
import { strongestRung } from '../../pure/rungs';

function model(overrides: Partial<ModelRow>): ModelRow {
  return {
    provider: 'acme',
    model: 'thinker',
    wire: 'chat_compat',
    features: ['tool_use', 'reasoning'],
    cost_tier: 'mid',
    pricing_per_1k: { input: 0.001, output: 0.004 },
    context_tokens: 200_000,
    max_output_tokens: 32_000,
    ...overrides,
  };
}

/** Ladder with gaps: low, high (no none, medium or max). */
const gappy = model({ effort: { low: { effort: 'low' }, high: { effort: 'high' } } });
/** Anthropic-style thinking budgets up to medium, with an explicit off switch. */
const capped = model({
  model: 'capped',
  effort: {
    none: { thinking: { type: 'disabled' } },
    low: { thinking: { type: 'enabled', budget_tokens: 2048 } },
    medium: { thinking: { type: 'enabled', budget_tokens: 8192 } },
  },
});
const plain = model({ model: 'plain', features: ['tool_use'] });

describe('effort ladder', () => {
  it('a rung the model has is sent as is', () => {
    expect(resolveEffort(gappy, 'high')).toEqual({ rung: 'high', fragment: { effort: 'high' } });
  });

  it('a missing rung rounds up', () => {
    expect(resolveEffort(gappy, 'medium')).toEqual({ rung: 'high', fragment: { effort: 'high' } });
    expect(resolveEffort(capped, 'low').rung).toBe('low');
  });

  it('the ceiling is used only after stronger rungs are exhausted', () => {
    // max: nothing at or above it, so the strongest rung (high) is the ceiling, with a log line.
    const choice = resolveEffort(gappy, 'max');
    expect(choice.rung).toBe('high');
    expect(choice.fragment).toEqual({ effort: 'high' });
    expect(choice.note).toMatch(/ceiling/);
    // medium has a stronger rung (high) so it rounds up without touching the ceiling or logging.
    expect(resolveEffort(gappy, 'medium').note).toBeUndefined();
    expect(resolveEffort(capped, 'high')).toMatchObject({
      rung: 'medium',
      fragment: { thinking: { type: 'enabled', budget_tokens: 8192 } },
    });
  });

  it('the ceiling is never none', () => {
    const offOnly = model({ effort: { none: { reasoning: false } } });
    const choice = resolveEffort(offOnly, 'low');
    expect(choice.rung).toBeUndefined();
    expect(choice.fragment).toBeUndefined();
    expect(choice.note).toMatch(/dropped/);
  });

  it('none never rounds up', () => {
    // No none entry: nothing is sent, even though low exists.
    expect(resolveEffort(gappy, 'none')).toEqual({});
    // A none entry is the vendor's explicit off switch and is sent.
    expect(resolveEffort(capped, 'none')).toEqual({ rung: 'none', fragment: { thinking: { type: 'disabled' } } });
  });

  it('effort on a non-reasoning model is dropped and logged', () => {
    const choice = resolveEffort(plain, 'high');
    expect(choice.rung).toBeUndefined();
    expect(choice.fragment).toBeUndefined();
    expect(choice.note).toBe('effort high dropped for acme/plain: it is not a reasoning model');
    // A reasoning model without an effort map cannot be asked either.
    expect(resolveEffort(model({ model: 'mapless' }), 'low').note).toBe(
      'effort low dropped for acme/mapless: it has no effort map',
    );
    // Asking it for none drops nothing.
    expect(resolveEffort(plain, 'none')).toEqual({});
  });

  it('nothing requested sends no fragment', () => {
    expect(resolveEffort(gappy, undefined)).toEqual({});
    expect(resolveEffort(plain, undefined)).toEqual({});
  });

  it('the fragment is a copy, so a caller merging it cannot change the catalog', () => {
    const fragment = resolveEffort(capped, 'low').fragment as { thinking: { budget_tokens: number } };
    fragment.thinking.budget_tokens = 1;
    expect(capped.effort?.low).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
  });
});

describe('effectiveRung', () => {
  it('precedence: level constraint over @rung over tier default', () => {
    expect(effectiveRung('low', 'max', ['high_reasoning'])).toBe('low');
    expect(effectiveRung(undefined, 'max', ['high_reasoning'])).toBe('max');
    expect(effectiveRung(undefined, undefined, ['high_reasoning'])).toBe('high');
    // A level constraint of none is a constraint, not an absence.
    expect(effectiveRung('none', 'high', ['high_reasoning'])).toBe('none');
  });

  it('tier default: high_reasoning implies high, fast_cheap implies none', () => {
    expect(effectiveRung(undefined, undefined, ['long_context', 'high_reasoning'])).toBe('high');
    expect(effectiveRung(undefined, undefined, ['fast_cheap'])).toBe('none');
    // Both declared: the stronger default wins.
    expect(effectiveRung(undefined, undefined, ['fast_cheap', 'high_reasoning'])).toBe('high');
  });

  it('no constraint, no suffix and no implying requirement means nothing requested', () => {
    expect(effectiveRung(undefined, undefined, undefined)).toBeUndefined();
    expect(effectiveRung(undefined, undefined, ['code_generation', 'no_such_requirement'])).toBeUndefined();
  });
});

describe('strongestRung', () => {
  it('keeps the strongest rung of a job', () => {
    expect(strongestRung(['low', undefined, 'high', 'none', 'medium'])).toBe('high');
    expect(strongestRung(['none'])).toBe('none');
    expect(strongestRung([undefined])).toBeUndefined();
    expect(strongestRung([])).toBeUndefined();
  });
});
