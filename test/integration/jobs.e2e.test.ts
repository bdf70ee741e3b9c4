import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { demoFileFor } from '../../routing/demo-model/demo-file';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import type { RunningWorker } from '../../temporal/worker';

let infra: Infrastructure;
let temporal: TestWorkflowEnvironment;
let keel: KeelUnderTest;
let worker: RunningWorker;

beforeAll(async () => {
  infra = await startInfrastructure();
  temporal = infra.temporal;
  keel = await startKeel(infra);
  worker = await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

async function submit(
  prompt: string,
): Promise<{ job_id: string; workflow_id: string; prompt_id: string; status: string }> {
  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt }),
  });
  expect(response.status).toBe(202);
  return (await response.json()) as { job_id: string; workflow_id: string; prompt_id: string; status: string };
}

async function collect(jobId: string, lastEventId?: number): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId, lastEventId })) {
    events.push(event);
  }
  return events;
}

test('a job runs from POST /v1/chat through Temporal to an SSE final, and its file exists', async () => {
  const prompt = 'Write hello.md that greets the reader';
  const accepted = await submit(prompt);
  expect(accepted).toMatchObject({ status: 'queued', workflow_id: expect.stringMatching(/^wf-\d+$/) as string });
  expect(accepted.prompt_id).toMatch(/^pt-\d+$/);

  const events = await collect(accepted.job_id);
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
  const final = events.at(-1)!;
  expect(final.kind).toBe('final');
  for (const event of events) {
    expect(event).toMatchObject({ schema_version: '1', job_id: accepted.job_id, workflow_id: accepted.workflow_id });
    expect(event.agent_role).toMatch(/^L[1-4]\./);
  }

  const expected = demoFileFor(prompt);
  expect(final.payload.created_files).toEqual([expected.path]);
  const written = await fs.readFile(path.join(keel.workspaceRoot, accepted.job_id, expected.path), 'utf8');
  expect(written).toBe(expected.content);

  // The default scenario `build` chains to `review`; one child workflow per level run.
  const levels = events.filter((e) => e.kind === 'level_finished').map((e) => e.agent_role);
  expect(levels).toEqual([
    'L1.team_lead',
    'L2.architect',
    'L4.executor',
    'L3.verifier',
    'L2.qa_lead',
    'L4.executor',
    'L3.verifier',
    'L2.release_manager',
  ]);
  // The release manager is composed in code: no routing, no provider or model, deterministic: true.
  const release = events.find((e) => e.kind === 'level_finished' && e.agent_role === 'L2.release_manager')!;
  expect(release.payload).toMatchObject({ ok: true, deterministic: true, cost_usd: 0 });
  expect(release.payload).not.toHaveProperty('provider');
  const scenarios = events
    .filter((e) => e.kind.startsWith('scenario_'))
    .map((e) => `${e.kind}:${JSON.stringify(e.payload.scenario ?? e.payload.to)}`);
  expect(scenarios).toEqual([
    'scenario_started:"build"',
    'scenario_finished:"build"',
    'scenario_chained:"review"',
    'scenario_started:"review"',
    'scenario_finished:"review"',
  ]);
  expect(events.filter((e) => e.kind === 'gate_decision').map((e) => e.payload.decision)).toEqual(['pass', 'pass']);
  const routing = events.filter((e) => e.kind === 'routing_decision');
  expect(routing).toHaveLength(7);
  expect(routing[0]!.payload).toMatchObject({
    provider: 'demo',
    model: 'keel-demo',
    model_display_name: 'offline demo model',
  });
  expect(new Set(events.filter((e) => e.kind === 'file_created').map((e) => e.payload.path))).toEqual(
    new Set([expected.path]),
  );

  const status = await fetch(`${keel.baseUrl}/v1/jobs/${accepted.job_id}`, {
    headers: { authorization: `Bearer ${keel.token}` },
  });
  expect(await status.json()).toMatchObject({ job_id: accepted.job_id, status: 'completed' });

  const children: string[] = [];
  for await (const wf of temporal.client.workflow.list({ query: `WorkflowId STARTS_WITH "${accepted.job_id}/"` })) {
    children.push(wf.workflowId);
  }
  expect(children.sort()).toEqual(
    [
      'L1.team_lead/1',
      'L2.architect/1',
      'L2.qa_lead/1',
      'L2.release_manager/1',
      'L3.verifier/1',
      'L3.verifier/2',
      'L4.executor/1',
      'L4.executor/2',
    ].map((child) => `${accepted.job_id}/${child}`),
  );
});

test('a client that reconnects with Last-Event-ID gets every sequence exactly once', async () => {
  const accepted = await submit('Write notes.md listing three colours');
  const first: EventEnvelope[] = [];
  const abort = new AbortController();
  try {
    for await (const event of streamJobEvents({
      baseUrl: keel.baseUrl,
      token: keel.token,
      jobId: accepted.job_id,
      signal: abort.signal,
    })) {
      first.push(event);
      // Stop reading at the third event, as a client that goes away would: events stored together arrive in one
      // chunk, so aborting alone still hands over the rest of the chunk already read.
      if (first.length === 3) {
        abort.abort();
        break;
      }
    }
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  }
  expect(first).toHaveLength(3);
  const rest = await collect(accepted.job_id, first.at(-1)!.sequence);
  const all = [...first, ...rest].map((e) => e.sequence);
  expect(all).toEqual(all.map((_, i) => i + 1));
  expect(rest.at(-1)!.kind).toBe('final');
});

test('cancelling a job before a worker picks it up ends its stream with a terminal event and the job reads cancelled', async () => {
  await worker.stop();
  const accepted = await submit('Write slow.md about patience');
  const cancel = await fetch(`${keel.baseUrl}/v1/jobs/${accepted.job_id}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}` },
  });
  expect(cancel.status).toBe(202);
  worker = await keel.startWorker();

  const events = await collect(accepted.job_id);
  expect(events.at(-1)).toMatchObject({ kind: 'error', payload: { code: 'cancelled', retryable: false } });
  const job = (await (
    await fetch(`${keel.baseUrl}/v1/jobs/${accepted.job_id}`, { headers: { authorization: `Bearer ${keel.token}` } })
  ).json()) as { status: string };
  expect(job.status).toBe('cancelled');
  const again = await fetch(`${keel.baseUrl}/v1/jobs/${accepted.job_id}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}` },
  });
  expect(again.status).toBe(409);
});
