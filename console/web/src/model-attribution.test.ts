import { describe, expect, it } from '@jest/globals';
import { modelAttribution, parseModelRef } from './model-attribution';

describe('one model attribution rule', () => {
  const demo = { provider: 'demo', model: 'demo-1' };
  it('names a model once when what answered is what was asked for', () => {
    expect(modelAttribution({ asked: demo, answered: demo, finished: true })).toBe(
      'asked for and answered by demo/demo-1',
    );
  });
  it('says what was asked and what answered when they differ, by the catalog name when routing gave one', () => {
    expect(
      modelAttribution({
        asked: { provider: 'anthropic', model: 'claude', displayName: 'Claude' },
        answered: { provider: 'openai', model: 'gpt-big' },
        finished: true,
      }),
    ).toBe('asked for Claude, answered by openai/gpt-big');
  });
  it('never invents an answer: a verdict level reports none, a composed level called none', () => {
    expect(modelAttribution({ asked: demo, answered: null, finished: true })).toBe(
      'asked for demo/demo-1; the answering model is not reported',
    );
    expect(modelAttribution({ asked: demo, answered: null, finished: false })).toBe('asked for demo/demo-1');
    expect(modelAttribution({ asked: null, answered: null, composed: true })).toBe('composed in code, no model call');
    expect(modelAttribution({ asked: null, answered: null, offline: true, finished: true })).toBe(
      'the offline demo model stood in',
    );
  });
  it("reads the run graph's provider/model strings", () => {
    expect(parseModelRef('demo/demo-1')).toEqual(demo);
    expect(parseModelRef(null)).toBeNull();
  });
});
