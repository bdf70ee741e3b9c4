// Prints how long prompt redaction takes on inputs built to make a backtracking regex go quadratic,
// next to a baseline measured in the same run: one linear regex pass over the same input.
// Run: npm run build && node dist/bench/redact.js
import { redactPrompt } from '../jobs/redact';
import { printJson } from './measure';

const CASES: Array<[string, string]> = [
  ['dotted words (200 kB)', 'a.'.repeat(100_000)],
  ['hyphenated labels after an @ (200 kB)', 'x@' + 'a-'.repeat(100_000)],
  ['PEM headers without an END (280 kB)', '-----BEGIN PRIVATE KEY-----\n'.repeat(10_000)],
  ['ordinary prose (200 kB)', 'Write hello.md that greets the reader, then mail me at a@b.io. '.repeat(3_200)],
];

function timeMs(fn: () => unknown, repeats = 5): number {
  const samples: number[] = [];
  for (let i = 0; i < repeats; i += 1) {
    const started = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return samples.sort((a, b) => a - b)[Math.floor(repeats / 2)]!;
}

console.log('case | redactPrompt ms (median of 5) | baseline linear pass ms | ratio');
const rows: Array<{ case: string; redact_ms: number; baseline_ms: number; ratio: number }> = [];
for (const [name, input] of CASES) {
  const redact = timeMs(() => redactPrompt(input));
  const baseline = timeMs(() => input.replace(/[a-z]+/g, ''));
  console.log(`${name} | ${redact.toFixed(1)} | ${baseline.toFixed(1)} | ${(redact / baseline).toFixed(1)}x`);
  rows.push({ case: name, redact_ms: redact, baseline_ms: baseline, ratio: redact / baseline });
}
printJson('redact', { rows });
