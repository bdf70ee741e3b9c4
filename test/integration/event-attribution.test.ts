import { runJobToEnd, startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * Every event a level run emits names that run in `level_id` (docs/events.md), so a client can tell apart events
 * that are otherwise alike: the default job's build and review executors both write the same file.
 */
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

/** What the job itself emits, speaking for all its levels, between and around level runs. */
const JOB_KINDS = new Set([
  'scenario_started',
  'scenario_finished',
  'scenario_chained',
  'agent_handoff',
  'gate_decision',
  'budget_consumed',
  'budget_exceeded',
  'prompt_appended',
  'final',
  'error',
]);

test("each event of a default job names the level run that caused it; the executors' file_created differ", async () => {
  const { jobId, events } = await runJobToEnd(keel, 'Write hello.md that greets the reader');
  expect(events.at(-1)?.kind).toBe('final');

  // Levels run one after another in a default job, so the run that caused an in-level event is the one whose
  // node_started came last and whose node_finished has not come yet.
  let open: string | undefined;
  const misattributed: string[] = [];
  for (const event of events) {
    if (JOB_KINDS.has(event.kind)) continue;
    if (event.kind === 'node_started') open = String(event.payload.node_id);
    const named = event.payload.level_id;
    if (open === undefined || named !== open || !open.startsWith(`${jobId}/${event.agent_role}/`)) {
      misattributed.push(
        `#${event.sequence} ${event.kind} by ${event.agent_role}: level_id ${String(named)}, in ${open}`,
      );
    }
    if (event.kind === 'node_finished') open = undefined;
  }
  expect(misattributed).toEqual([]);
  expect(events.filter((e) => !JOB_KINDS.has(e.kind)).length).toBeGreaterThan(30);

  const files = events.filter((e) => e.kind === 'file_created');
  expect(files.map((e) => [e.agent_role, e.payload.path])).toEqual([
    ['L4.executor', 'hello.md'],
    ['L4.executor', 'hello.md'],
  ]);
  expect(files.map((e) => e.payload.level_id)).toEqual([`${jobId}/L4.executor/1`, `${jobId}/L4.executor/2`]);
  // The build's executor and the review's are the level_started of two different runs.
  const started = events.filter((e) => e.kind === 'level_started').map((e) => e.payload.level_id);
  expect(started).toEqual(expect.arrayContaining(files.map((e) => e.payload.level_id)));
});
