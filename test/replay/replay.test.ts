import {
  bundleWorkflowCode,
  DefaultLogger,
  Runtime,
  Worker,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { historyFromPlain, readRecordedJobs } from './histories';

/**
 * Determinism, enforced: the recorded histories of representative jobs (test/replay/histories/, refreshed on purpose
 * with `npm run replay:record`, docs/replay.md) replay against the current workflow code. A change that would make a
 * running job's workflow take a different path on replay (a reordered activity, a new timer, a removed emit) fails
 * here before it breaks jobs in flight.
 */
let bundle: WorkflowBundleWithSourceMap;

beforeAll(async () => {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // already installed by an earlier test file in this process
  }
  // Bundled once for this file, as the worker does at start.
  bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietLogger });
});

const recorded = readRecordedJobs();

test('there are recorded histories of every representative job', () => {
  expect(recorded.map((r) => r.file)).toEqual(
    expect.arrayContaining([
      'default.json.gz',
      'ask-user.json.gz',
      'approval.json.gz',
      'verifier-escalation.json.gz',
      'cancel.json.gz',
      'follow-up.json.gz',
    ]),
  );
});

test.each(recorded.map((r) => [r.file, r.job] as const))(
  '%s replays against the current workflow code',
  async (_file, job) => {
    const histories = job.workflows.map((w) => ({ workflowId: w.workflowId, history: historyFromPlain(w.history) }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowBundle: bundle }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(job.workflows.length).toBeGreaterThan(0);
  },
);

/** The bundler's progress lines are not test output. */
const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};
