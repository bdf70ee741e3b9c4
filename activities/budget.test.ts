import { estimateCallUsd, ESTIMATED_OUTPUT_TOKENS } from './budget';

describe("a call's estimated cost", () => {
  test("is the prompt at four characters a token and the output at the catalog's prices", () => {
    const listing = { pricing_per_1k: { input: 0.15, output: 0.6 }, max_output_tokens: 16_000 };
    expect(estimateCallUsd(listing, 4_000, 'Write a.md')).toBeCloseTo(
      (1000 * 0.15 + ESTIMATED_OUTPUT_TOKENS * 0.6) / 1000,
      9,
    );
  });

  test("counts no more output than the model's maximum", () => {
    const listing = { pricing_per_1k: { input: 0, output: 1 }, max_output_tokens: 100 };
    expect(estimateCallUsd(listing, 0, '')).toBeCloseTo(0.1, 9);
  });

  test("is the demo model's #cost for a model the catalog prices at nothing, else 0", () => {
    const free = { pricing_per_1k: null, max_output_tokens: 4096 };
    expect(estimateCallUsd(free, 10_000, 'Write a.md #cost=0.25')).toBe(0.25);
    expect(estimateCallUsd(free, 10_000, 'Write a.md')).toBe(0);
    expect(estimateCallUsd(undefined, 10_000, 'Write a.md')).toBe(0);
  });
});
