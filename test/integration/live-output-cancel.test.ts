import { streamJobMessages, type JobStreamMessage } from '../../cli/event-stream';
import { jobDeltaBuffers, jobDeltasChannel, liveDeltaBatch, type LiveDelta } from '../../events/live-deltas';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { startEndlessStreamModel } from './endless-stream-model';
import { eventually } from './eventually';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * Cancelling a job while its model call streams: the cancel reaches the activity through its heartbeats, the
 * activity's cancellation signal aborts the vendor's stream (no more tokens billed), the attempt's partial output is
 * discarded on the live channel, and nothing streams after the job's terminal event. The executor's answer never
 * ends on its own (a fake vendor sending a token every 50 ms), so only the client closing it can stop it.
 */
let infra: Infrastructure;
let demo: DemoModelServer;
let vendor: Awaited<ReturnType<typeof startEndlessStreamModel>>;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  demo = await startDemoModelServer();
  vendor = await startEndlessStreamModel({ upstream: demo.baseUrl, level: 'L4.executor', paceMs: 50 });
  keel = await startKeel({ ...infra, demoBaseUrl: vendor.baseUrl });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await vendor?.close();
  await demo?.close();
  await infra?.close();
});

test("cancelling a job mid-stream aborts the vendor's stream, discards the partial output, and nothing streams after the terminal event", async () => {
  const headers = { authorization: `Bearer ${keel.token}` };
  const submitted = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Write notes.md about durable workflows' }),
  });
  expect(submitted.status).toBe(202);
  const { job_id: jobId } = (await submitted.json()) as { job_id: string };
  const executor = `${jobId}/L4.executor/1`;

  // Everything the workers publish on the job's live channel, as a second API replica would hear it.
  const published: LiveDelta[] = [];
  const unsubscribe = await infra.queue.subscribe(jobDeltasChannel(jobId), (message) =>
    published.push(...liveDeltaBatch.parse(JSON.parse(message))),
  );
  const messages: JobStreamMessage[] = [];
  const streamed = (async () => {
    for await (const message of streamJobMessages({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
      messages.push(message);
    }
  })();
  const executorText = () =>
    messages.filter((m) => m.type === 'delta' && m.delta.level_id === executor && m.delta.kind === 'text');

  try {
    // Tokens are flowing: the vendor is sending them and the client watching the job sees them arrive.
    await vendor.started;
    await eventually(() => executorText().length >= 3, { what: "the executor's streamed text on the job stream" });

    const cancelledAt = Date.now();
    const cancel = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/cancel`, { method: 'POST', headers });
    expect(cancel.status).toBe(202);

    // The vendor saw its client go: the stream was aborted, not left to run to an end it does not have.
    const sentBeforeClose = await vendor.closedByClient;
    await streamed;
    const events = messages.flatMap((m) => (m.type === 'event' ? [m.event] : []));
    expect(events.at(-1)).toMatchObject({ kind: 'error', payload: { code: 'cancelled' } });
    expect(events.some((e) => e.kind === 'final' || e.kind === 'file_created')).toBe(false);
    // Nothing follows the terminal event on the stream.
    expect(messages.at(-1)).toMatchObject({ type: 'event', event: { kind: 'error' } });

    // The level waits for its model call to be really over (WAIT_CANCELLATION_COMPLETED): once the executor's
    // workflow reads cancelled, the activity has returned, and whatever it published is on the channel.
    const executorWorkflow = infra.temporal.client.workflow.getHandle(executor);
    await executorWorkflow.result().catch(() => undefined);
    expect((await executorWorkflow.describe()).status.name).toBe('CANCELLED');
    await eventually(() => published.some((d) => d.level_id === executor && d.kind === 'discard'), {
      what: "the discard of the executor's cancelled attempt on the live channel",
    });
    const executorDeltas = published.filter((d) => d.level_id === executor);
    // The cancelled attempt's output is dropped by every client, and is the last thing the call published.
    expect(executorDeltas.at(-1)).toMatchObject({ kind: 'discard' });
    expect(executorDeltas.some((d) => d.kind === 'end')).toBe(false);
    // What streamed is what the vendor sent before the abort, and no more.
    const text = executorDeltas
      .filter((d) => d.kind === 'text')
      .map((d) => d.text)
      .join('');
    expect(text).toBe(Array.from({ length: text.split('token ').length - 1 }, (_, i) => `token ${i + 1} `).join(''));
    expect(text.split('token ').length - 1).toBeLessThanOrEqual(sentBeforeClose);
    // No call's buffer is left for a client that joins now.
    expect(await infra.queue.readBounded(jobDeltaBuffers(jobId))).toEqual([]);
    // How long the abort took is the product's goal (within a second), stated in docs/live-output.md; logged here.
    process.stdout.write(`cancel → vendor stream closed: ${vendor.closedAt! - cancelledAt} ms\n`);
  } finally {
    await unsubscribe();
  }
});
