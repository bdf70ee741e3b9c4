import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * The hierarchy's paths, each driven by a demo directive in the prompt (#verify-fail=N, #ask, #approve)
 * through the real API, Temporal dev server and worker. People answer through the HTTP API while the
 * test reads the job's event stream.
 */
let infra: Infrastructure;
let temporal: TestWorkflowEnvironment;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  temporal = infra.temporal;
  keel = await startKeel(infra);
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

const auth = () => ({ authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' });

async function submit(prompt: string): Promise<string> {
  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: auth(),
    body: JSON.stringify({ prompt }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

/** Reads the whole stream, calling `onEvent` for each event as it arrives (a person reacting). */
async function follow(
  jobId: string,
  onEvent: (event: EventEnvelope) => Promise<void> = async () => {},
): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
    events.push(event);
    await onEvent(event);
  }
  return events;
}

const post = (path: string, body: unknown) =>
  fetch(`${keel.baseUrl}${path}`, { method: 'POST', headers: auth(), body: JSON.stringify(body) });
const jobStatus = async (jobId: string) =>
  ((await (await fetch(`${keel.baseUrl}/v1/jobs/${jobId}`, { headers: auth() })).json()) as { status: string }).status;
const decisions = (events: EventEnvelope[]) =>
  events.filter((e) => e.kind === 'gate_decision').map((e) => e.payload.decision);
const runsOf = (events: EventEnvelope[], role: string) =>
  events.filter((e) => e.kind === 'level_finished' && e.agent_role === role).length;

test('a verifier failing twice sends the deltas back twice, and the third executor attempt passes', async () => {
  const events = await follow(await submit('Write hello.md that greets the reader #verify-fail=2'));
  expect(events.at(-1)?.kind).toBe('final');
  // build: retry, retry, pass; then the chained review scenario's verification passes.
  expect(decisions(events)).toEqual(['retry', 'retry', 'pass', 'pass']);
  const retry = events.find((e) => e.kind === 'gate_decision' && e.payload.decision === 'retry')!;
  expect((retry.payload.deltas as string[]).length).toBeGreaterThan(0);
  expect(runsOf(events, 'L4.executor')).toBe(3 + 1);
});

test('a verifier failing four times escalates to the L2 level that issued the task', async () => {
  const jobId = await submit('Write hello.md that greets the reader #verify-fail=4');
  const events = await follow(jobId);
  expect(events.at(-1)?.kind).toBe('final');
  expect(decisions(events)).toEqual(['retry', 'retry', 'retry', 'escalate', 'pass', 'pass']);
  expect(events.find((e) => e.payload.decision === 'escalate')?.payload.to).toBe('L2.architect');
  expect(runsOf(events, 'L2.architect')).toBe(2);
  const architect2 = await temporal.client.workflow.getHandle(`${jobId}/L2.architect/2`).describe();
  expect(architect2.status.name).toBe('COMPLETED');
});

test('#look: the executor lists, searches and reads the workspace before it writes; the next one reads what it wrote', async () => {
  const events = await follow(await submit('Write hello.md that greets the reader #look'));
  expect(events.at(-1)?.kind).toBe('final');
  const executorCalls = events
    .filter((e) => e.kind === 'tool_call' && e.agent_role === 'L4.executor')
    .map((e) => String(e.payload.name));
  // The build's executor, then the chained review's: each looks first, then writes.
  expect(executorCalls).toEqual([
    ...['list_files', 'search_files', 'read_file', 'write_file'],
    ...['list_files', 'search_files', 'read_file', 'write_file'],
  ]);
  // Each call's result is the next tool_result after it (the demo model's call ids repeat across the two levels).
  const readResults = events.flatMap((event, index) =>
    event.kind === 'tool_call' && event.payload.name === 'read_file'
      ? [String(events.slice(index).find((e) => e.kind === 'tool_result')?.payload.preview)]
      : [],
  );
  expect(readResults[0]).toContain('hello.md does not exist');
  expect(readResults[1]).toMatch(/^hello\.md: lines 1-\d+ of \d+/);
});

test('ask_user pauses the job; the answer through resume reaches the model and the job finishes', async () => {
  const jobId = await submit('Write hello.md that greets the reader #ask');
  let seenPaused = '';
  const events = await follow(jobId, async (event) => {
    if (event.kind !== 'ask_user') return;
    // The level records `paused` before the question is out (docs/human-input.md).
    seenPaused = await jobStatus(jobId);
    const resumed = await post(`/v1/jobs/${jobId}/resume`, { call_id: event.payload.call_id, answer: 'friendly' });
    expect(resumed.status).toBe(200);
    const again = await post(`/v1/jobs/${jobId}/resume`, { call_id: event.payload.call_id, answer: 'formal' });
    expect(again.status).toBe(409);
  });
  expect(seenPaused).toBe('paused');
  expect(events.at(-1)?.kind).toBe('final');
  const architect = events.find((e) => e.kind === 'level_finished' && e.agent_role === 'L2.architect')!;
  expect(architect.payload.output_preview).toContain('friendly');
  expect(await jobStatus(jobId)).toBe('completed');
});

test('the L2 level an escalation runs again asks its question again under the same call id: listed, answered, final', async () => {
  // The demo model's call ids are a hash of the call (as some providers' are a counter): the second L2 run's
  // ask_user has the first one's id. Each time the job is paused it lists the question and takes its answer.
  const jobId = await submit('Write hello.md that greets the reader #ask #verify-fail=4');
  const listed: string[][] = [];
  const events = await follow(jobId, async (event) => {
    if (event.kind !== 'ask_user') return;
    const res = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}`, { headers: auth() });
    const job = (await res.json()) as { status: string; pending: { questions: Array<{ call_id: string }> } | null };
    expect(job.status).toBe('paused');
    listed.push((job.pending?.questions ?? []).map((q) => q.call_id));
    const resumed = await post(`/v1/jobs/${jobId}/resume`, { call_id: event.payload.call_id, answer: 'friendly' });
    expect(resumed.status).toBe(200);
  });
  const asked = events.filter((e) => e.kind === 'ask_user').map((e) => String(e.payload.call_id));
  expect(asked).toHaveLength(2);
  expect(asked[1]).toBe(asked[0]);
  expect(listed).toEqual([[asked[0]], [asked[0]]]);
  expect(decisions(events)).toEqual(['retry', 'retry', 'retry', 'escalate', 'pass', 'pass']);
  expect(events.at(-1)?.kind).toBe('final');
  expect(await jobStatus(jobId)).toBe('completed');
});

test('resume on a job that waits for no answer is 409 job_not_paused; an approval approved lets it finish', async () => {
  const jobId = await submit('Write hello.md that greets the reader #approve');
  const events = await follow(jobId, async (event) => {
    if (event.kind !== 'approval_requested') return;
    const resumed = await post(`/v1/jobs/${jobId}/resume`, { call_id: 'call_nobody_asked', answer: 'hi' });
    expect(resumed.status).toBe(409);
    expect(((await resumed.json()) as { error: { code: string } }).error.code).toBe('job_not_paused');
    const decided = await post(`/v1/approvals/${String(event.payload.approval_id)}/decide`, { decision: 'approve' });
    expect(decided.status).toBe(200);
    const twice = await post(`/v1/approvals/${String(event.payload.approval_id)}/decide`, { decision: 'reject' });
    expect(twice.status).toBe(409);
  });
  expect(events.at(-1)?.kind).toBe('final');
  expect(events.some((e) => e.kind === 'approval_requested')).toBe(true);
});

test('a rejected approval reaches the model as the tool result', async () => {
  const events = await follow(await submit('Write hello.md that greets the reader #approve'), async (event) => {
    if (event.kind === 'approval_requested') {
      await post(`/v1/approvals/${String(event.payload.approval_id)}/decide`, {
        decision: 'reject',
        comment: 'not today',
      });
    }
  });
  const architect = events.find((e) => e.kind === 'level_finished' && e.agent_role === 'L2.architect')!;
  expect(architect.payload.output_preview).toContain('approval was rejected');
});

test('cancelling a job paused on a question ends it cancelled', async () => {
  const jobId = await submit('Write hello.md that greets the reader #ask');
  const events = await follow(jobId, async (event) => {
    if (event.kind === 'ask_user') expect((await post(`/v1/jobs/${jobId}/cancel`, {})).status).toBe(202);
  });
  expect(events.at(-1)).toMatchObject({ kind: 'error', payload: { code: 'cancelled', retryable: false } });
  expect(await jobStatus(jobId)).toBe('cancelled');
});

test('a command is answered by the team lead in code, with no model call', async () => {
  const events = await follow(await submit('/help'));
  expect(events.some((e) => e.kind === 'routing_decision' || e.kind === 'prompt_sent')).toBe(false);
  const lead = events.find((e) => e.kind === 'level_finished')!;
  expect(lead).toMatchObject({ agent_role: 'L1.team_lead', payload: { deterministic: true, intent: 'command' } });
  expect(events.at(-1)).toMatchObject({ kind: 'final' });
  expect(events.at(-1)!.payload.agent_message).toContain('/echo');
});

test('a rule is kept in the job files by the team lead, with no model call', async () => {
  const jobId = await submit('rule: always write British spelling');
  const events = await follow(jobId);
  expect(events.some((e) => e.kind === 'routing_decision')).toBe(false);
  expect(events.at(-1)).toMatchObject({ kind: 'final', payload: { created_files: ['rules.md'] } });
  const file = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/files/rules.md`, { headers: auth() });
  expect(await file.text()).toBe('# Rules\n\n- always write British spelling\n');
});
