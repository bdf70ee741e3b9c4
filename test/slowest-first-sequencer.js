'use strict';
/**
 * jest's test order (jest.config.js `testSequencer`). With timings of an earlier run, jest starts the longest files
 * first, and this keeps that order. Without them (a fresh checkout, as in CI), jest orders by file size, and
 * `human-input-race`, one of the longest files but a short one, started ~100 s into a run and ended it. Then the
 * files below, the slowest in CI's "Slowest test files", go first, in this order; the rest keep jest's order.
 * A stale list costs only order. Measured on .ci/run (docs/performance.md, "The test suite").
 */
const Sequencer = require('@jest/test-sequencer').default;

const SLOWEST = [
  'test/integration/human-input-race.test.ts',
  'test/integration/fault-drills.test.ts',
  'test/integration/replicas-drill.test.ts',
  'test/integration/cli-jobs.test.ts',
  'test/browser/console-jobs.test.ts',
  'test/integration/workflows-run.test.ts',
  'test/integration/product-build.e2e.test.ts',
];

class SlowestFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.some((test) => test.duration !== undefined)) return sorted;
    const rank = (test) => {
      const index = SLOWEST.findIndex((file) => test.path.endsWith(file));
      return index === -1 ? SLOWEST.length : index;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = SlowestFirstSequencer;
