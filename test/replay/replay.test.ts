import { Worker } from '@temporalio/worker';
import { bundleWorkflows } from '../../temporal/workflow-code';
import { workflowTracingSinks } from '../../temporal/worker';
import { quietTemporalLogs, sharedWorkflowBundle } from '../integration/shared-services';
import { historyFromPlain, OLDER_HISTORIES, readRecordedJobs } from './histories';

/**
 * Determinism, enforced: the recorded histories of representative jobs (test/replay/histories/, refreshed on purpose
 * with `npm run replay:record`, docs/replay.md) replay against the current workflow code. A change that would make a
 * running job's workflow take a different path on replay (a reordered activity, a new timer, a removed emit) fails
 * here before it breaks jobs in flight.
 */
let code: string;

beforeAll(async () => {
  quietTemporalLogs();
  // The run's bundle of the current workflow code (jest's global set-up bundles it once for every file,
  // test/integration/shared-services.ts), else bundled here, as `npm run build` bundles what workers run.
  code = sharedWorkflowBundle() ?? (await bundleWorkflows());
});

const recorded = readRecordedJobs();
const older = Object.entries(OLDER_HISTORIES).flatMap(([name, dir]) =>
  readRecordedJobs(dir).map((r) => ({ ...r, file: `${name}/${r.file}` })),
);

test('there are recorded histories of every representative job', () => {
  expect(recorded.map((r) => r.file)).toEqual(
    expect.arrayContaining([
      'default.json.gz',
      'ask-user.json.gz',
      'approval.json.gz',
      'verifier-escalation.json.gz',
      'cancel.json.gz',
      'follow-up.json.gz',
      'product.json.gz',
      'budget-pause.json.gz',
    ]),
  );
});

test('the older recordings that keep patched paths tested are there', () => {
  expect(older.map((r) => r.file)).toEqual(
    expect.arrayContaining([
      'before-raise-first/ask-user.json.gz',
      'before-raise-first/approval.json.gz',
      'before-local-emit/default.json.gz',
      'before-local-emit/ask-user.json.gz',
      'before-local-emit/cancel.json.gz',
      'before-compact-history/default.json.gz',
      'before-compact-history/verifier-escalation.json.gz',
    ]),
  );
});

/**
 * The gate has teeth: a job workflow changed without `patched()` (the deploy drill's release, a timer before the first
 * command: test/integration/changed-workflows) fails to replay the recorded job paused on ask_user, so such a change
 * cannot pass `npm test`.
 */
test('an unversioned change to the job workflow fails replay of a recorded paused job', async () => {
  const changed = await bundleWorkflows(require.resolve('../integration/changed-workflows'));
  const job = recorded.find((r) => r.file === 'ask-user.json.gz')!.job;
  const errors: string[] = [];
  for await (const result of Worker.runReplayHistories(
    { workflowBundle: { code: changed }, sinks: workflowTracingSinks(undefined) },
    job.workflows.map((w) => ({ workflowId: w.workflowId, history: historyFromPlain(w.history) })),
  )) {
    if (result.error) errors.push(`${result.workflowId}: ${result.error.message}`);
  }
  // Only the job workflow changed: it alone fails, and for non-determinism.
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(/Nondeterminism/);
});

test.each([...recorded, ...older].map((r) => [r.file, r.job] as const))(
  '%s replays against the current workflow code',
  async (_file, job) => {
    const histories = job.workflows.map((w) => ({ workflowId: w.workflowId, history: historyFromPlain(w.history) }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: { code }, sinks: workflowTracingSinks(undefined) },
      histories,
    )) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(job.workflows.length).toBeGreaterThan(0);
  },
);
