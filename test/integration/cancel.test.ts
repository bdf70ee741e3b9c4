import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { startGatedModel } from './gated-model';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { eventually } from './eventually';

let infra: Infrastructure;
let temporal: TestWorkflowEnvironment;
let demo: DemoModelServer;
let gate: Awaited<ReturnType<typeof startGatedModel>>;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  temporal = infra.temporal;
  demo = await startDemoModelServer();
  gate = await startGatedModel({ upstream: demo.baseUrl, holdLevel: 'L4.executor' });
  keel = await startKeel({ ...infra, demoBaseUrl: gate.baseUrl, levelHeartbeatMs: 200 });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await gate?.close();
  await demo?.close();
  await infra?.close();
});

test('cancelling a running job reaches its in-flight model call, ends the stream with a terminal event, and the job reads cancelled', async () => {
  const headers = { authorization: `Bearer ${keel.token}` };
  const submitted = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Write hello.md that greets the reader' }),
  });
  const { job_id: jobId } = (await submitted.json()) as { job_id: string };

  const events: EventEnvelope[] = [];
  const streamed = (async () => {
    for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  })();

  // The executor is waiting on its model: the job is running, mid-level, and says so with heartbeats.
  await gate.reached;
  // Earlier levels may beat too when their model is slow (a loaded machine): look for the executor's own.
  const heartbeat = await eventually(
    () => events.find((e) => e.kind === 'heartbeat' && e.agent_role === 'L4.executor'),
    {
      what: "the executor's heartbeat on the stream",
      intervalMs: 25,
    },
  );
  expect(heartbeat.payload).toMatchObject({ round: 1, waiting_ms: 200 });
  const cancel = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/cancel`, { method: 'POST', headers });
  expect(cancel.status).toBe(202);
  await streamed;

  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)).toMatchObject({ kind: 'error', payload: { code: 'cancelled', retryable: false } });
  expect(events.some((e) => e.kind === 'final' || e.kind === 'file_created')).toBe(false);
  expect(events.filter((e) => e.kind === 'level_finished').map((e) => e.agent_role)).toEqual([
    'L1.team_lead',
    'L2.architect',
  ]);

  const job = (await (await fetch(`${keel.baseUrl}/v1/jobs/${jobId}`, { headers })).json()) as { status: string };
  expect(job.status).toBe('cancelled');
  // Cancellation reached the child workflow running the executor, and through it the model call.
  const executor = await temporal.client.workflow.getHandle(`${jobId}/L4.executor/1`).describe();
  expect(executor.status.name).toBe('CANCELLED');
  const history = await temporal.client.workflow.getHandle(`${jobId}/L4.executor/1`).fetchHistory();
  expect((history.events ?? []).some((e) => e.activityTaskCanceledEventAttributes)).toBe(true);
  // The job's row reads cancelled a moment before its workflow has finished closing: wait for the close itself.
  const jobWorkflow = temporal.client.workflow.getHandle(jobId);
  await jobWorkflow.result().catch(() => undefined);
  expect((await jobWorkflow.describe()).status.name).toBe('CANCELLED');
});
