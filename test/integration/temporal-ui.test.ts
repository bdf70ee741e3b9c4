import { runJobToEnd, startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { eventually } from './eventually';

let infra: Infrastructure;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

/** Workflow ids a visibility query lists, read until `ready` holds (the dev server's visibility lags a little). */
async function listUntil(query: string, ready: (ids: string[]) => boolean): Promise<string[]> {
  return eventually(
    async () => {
      const ids: string[] = [];
      for await (const run of infra.temporal.client.workflow.list({ query })) ids.push(run.workflowId);
      return ready(ids) && ids;
    },
    { what: `the visibility query ${query} to list the runs`, intervalMs: 200 },
  );
}

test('the operators\' query KeelKind = "job" lists jobs only; each job and level run carries a summary', async () => {
  const { jobId, events } = await runJobToEnd(
    keel,
    'Write kinds.md that greets the reader\nSecond line stays out of the summary.',
  );
  expect(events.at(-1)?.kind).toBe('final');
  const levelRuns = events.filter((e) => e.kind === 'level_started').length;
  expect(levelRuns).toBeGreaterThan(1);

  const levels = await listUntil(
    `KeelKind = "level" AND KeelWorkflowId = "${events[0]!.workflow_id}"`,
    (ids) => ids.length >= levelRuns,
  );
  expect(levels).toHaveLength(levelRuns);
  expect(levels).not.toContain(jobId);
  const jobs = await listUntil(
    `KeelKind = "job" AND KeelWorkflowId = "${events[0]!.workflow_id}"`,
    (ids) => ids.length > 0,
  );
  expect(jobs).toEqual([jobId]);

  const job = await infra.temporal.client.workflow.getHandle(jobId).describe();
  expect(await job.staticSummary()).toBe('Write kinds.md that greets the reader');
  expect(await job.staticDetails()).toContain(jobId);
  const level = await infra.temporal.client.workflow.getHandle(levels[0]!).describe();
  expect(await level.staticSummary()).toMatch(/^L[1-4]\.\w+/);
});
