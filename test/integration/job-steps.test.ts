import { streamJobEvents } from '../../cli/event-stream';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * A level run's transcript (GET /v1/jobs/:id/steps/:role/:run, the console's step drawer) read from its workflow
 * history on the real stack, and who cancelled a job (kept on its error as `cancelled_by`).
 */
let infra: Infrastructure;
let demo: DemoModelServer;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  demo = await startDemoModelServer({ slowMs: 2_000 });
  keel = await startKeel({ ...infra, demoBaseUrl: demo.baseUrl });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await demo?.close();
  await infra?.close();
});

const headers = () => ({ authorization: `Bearer ${keel.token}` });
async function submit(prompt: string): Promise<string> {
  const submitted = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json' },
    body: JSON.stringify({ prompt }),
  });
  expect(submitted.status).toBe(202);
  return ((await submitted.json()) as { job_id: string }).job_id;
}

test("an executor's transcript: the prompt as sent, its tool call with arguments and result, the answer and usage", async () => {
  const jobId = await submit('Write hello.md that greets the reader. Contact me at someone@example.com');
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) void event;

  const response = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/steps/L4.executor/1`, { headers: headers() });
  expect(response.status).toBe(200);
  const step = (await response.json()) as {
    level_id: string;
    calls: { round: number; attempt: number; provider: string; usage: { prompt_tokens: number } }[];
    messages: { role: string; content: string | null; tool_calls: { name: string; arguments: string }[] }[];
    output: string | null;
    tools: string[];
  };
  expect(step.level_id).toBe(`${jobId}/L4.executor/1`);
  expect(step.messages[0]!.role).toBe('system');
  const user = step.messages.find((m) => m.role === 'user')!;
  expect(user.content).toContain('Write hello.md');
  // Redacted where Keel redacts: the address never reaches the transcript.
  expect(JSON.stringify(step)).not.toContain('someone@example.com');
  const call = step.messages.flatMap((m) => m.tool_calls).find((c) => c.name === 'write_file')!;
  expect(JSON.parse(call.arguments)).toMatchObject({ path: 'hello.md' });
  expect(step.messages.some((m) => m.role === 'tool')).toBe(true);
  expect(step.output).toEqual(expect.any(String));
  expect(step.calls.length).toBeGreaterThanOrEqual(2);
  expect(step.calls[0]).toMatchObject({ round: 1, attempt: 1, retried_because: null });
  expect(step.calls[0]!.usage.prompt_tokens).toBeGreaterThan(0);
  expect(step.tools).toContain('write_file');

  const missing = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/steps/L4.executor/9`, { headers: headers() });
  expect(missing.status).toBe(404);
  expect(await missing.json()).toMatchObject({ error: { code: 'not_found' } });
  const bad = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/steps/L4.executor/a%20b`, { headers: headers() });
  expect(bad.status).toBe(400);
});

test('a cancelled job names who cancelled it', async () => {
  const jobId = await submit('Write slow.md that greets the reader #slow');
  const events = streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId });
  for await (const event of events) if (event.kind === 'level_started') break;
  const cancel = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/cancel`, { method: 'POST', headers: headers() });
  expect(cancel.status).toBe(202);
  const job = (await (await fetch(`${keel.baseUrl}/v1/jobs/${jobId}`, { headers: headers() })).json()) as {
    status: string;
    error: { code: string; cancelled_by?: string };
  };
  expect(job.status).toBe('cancelled');
  expect(job.error).toMatchObject({ code: 'cancelled', cancelled_by: 'dev' });
});
