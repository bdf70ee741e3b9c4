import { createLiveCall } from '../events/live-output';
import { jobDeltaBuffers, jobDeltasChannel, liveDeltaBatch, type LiveDelta } from '../events/live-deltas';
import { createMemoryQueueStore } from '../queue/memory-queue-store';
import type { QueueStore } from '../queue/queue-store';
import { openAIErrors, openAIReplies, startFakeOpenAI, type FakeOpenAI } from '../test/fakes/fake-openai';
import type { Candidate, Catalog } from './catalog/types';
import { buildRouter } from './open-models';

/**
 * A streamed call through the walk: a failure after some tokens moves to the next candidate exactly as a failed
 * request does, and the live channel tells clients to drop the failed attempt's output.
 */
let vendor: FakeOpenAI;
let queue: QueueStore;
const jobId = 'job-stream-walk';
const levelId = `${jobId}/L3.executor/1`;

beforeEach(async () => {
  vendor = await startFakeOpenAI();
  queue = createMemoryQueueStore({ prefix: 'test:' });
});

afterEach(async () => {
  await vendor.close();
  await queue.close();
});

function catalog(): Catalog {
  const row = (model: string, preference: number) => ({
    provider: 'alpha',
    model,
    wire: 'chat_compat' as const,
    features: ['tool_use' as const],
    cost_tier: 'mid' as const,
    pricing_per_1k: { input: 0.01, output: 0.03 },
    context_tokens: 200_000,
    max_output_tokens: 4096,
    preference,
  });
  return {
    providers: { alpha: { wire: 'chat_compat', base_url: vendor.baseUrl, auth: { env: 'ALPHA_KEY' } } },
    models: [row('alpha-large', 1), row('alpha-small', 2)],
  };
}

/** Every delta published on the job's channel, in order. */
async function collectDeltas(): Promise<{ deltas: LiveDelta[]; stop(): Promise<void> }> {
  const deltas: LiveDelta[] = [];
  const stop = await queue.subscribe(jobDeltasChannel(jobId), (message) =>
    deltas.push(...liveDeltaBatch.parse(JSON.parse(message))),
  );
  return { deltas, stop };
}

function liveCall() {
  return createLiveCall({
    queue,
    jobId,
    levelId,
    callId: `${levelId}#1`,
    attemptPrefix: '1',
    maxBufferBytes: 64 * 1024,
    bufferTtlMs: 60_000,
  });
}

const candidates: Candidate[] = [
  { provider: 'alpha', model: 'alpha-large', tier: 'mid', source: 'provider_default' },
  { provider: 'alpha', model: 'alpha-small', tier: 'mid', source: 'provider_default' },
];

test('a 429 after some tokens falls back to the next candidate, discarding the failed attempt', async () => {
  vendor.enqueue(
    openAIReplies.stream({ deltas: [{ content: 'Half an ' }], then: { error: openAIErrors.rateLimited() } }),
    openAIReplies.text('A whole answer.', { usage: { promptTokens: 10, completionTokens: 4 } }),
  );
  const router = await buildRouter(catalog(), { providers: { alpha: {} } }, { ALPHA_KEY: 'k' }, queue, () => {});
  const seen = await collectDeltas();
  const live = liveCall();

  const outcome = await router.call({ candidates, messages: [{ role: 'user', content: 'hi' }], live });
  await live.settled();
  await new Promise((resolve) => setImmediate(resolve));
  await seen.stop();

  expect(outcome.candidateModel).toBe('alpha-small');
  expect(outcome.reply.content).toBe('A whole answer.');
  expect(outcome.reply.usage).toEqual({ inputTokens: 10, outputTokens: 4, reasoningTokens: 0, cachedInputTokens: 0 });
  expect(outcome.costUsd).toBeCloseTo((10 * 0.01 + 4 * 0.03) / 1000);
  expect(outcome.hops).toEqual([
    { from_model: 'alpha-large', to_model: 'alpha-small', to_provider: 'alpha', reason: 'rate_limited' },
  ]);
  const summary = seen.deltas.map((d) => [d.attempt, d.kind, d.model]);
  expect(summary[0]).toEqual(['1.1', 'text', 'alpha-large']);
  expect(summary).toContainEqual(['1.1', 'discard', 'alpha-large']);
  expect(summary.at(-1)).toEqual(['1.2', 'end', 'alpha-small']);
  // The discard comes before anything of the next attempt, and the next attempt's text is the whole answer.
  const discardAt = summary.findIndex(([, kind]) => kind === 'discard');
  expect(summary.slice(0, discardAt).every(([attempt]) => attempt === '1.1')).toBe(true);
  const text = seen.deltas.filter((d) => d.attempt === '1.2' && d.kind === 'text');
  expect(text.map((d) => d.text).join('')).toBe('A whole answer.');
  expect(text.map((d) => d.offset)).toEqual(
    text.map((_, i) => text.slice(0, i).reduce((sum, d) => sum + d.text.length, 0)),
  );
  // The call is over: nothing is left in its buffer for a client that joins now.
  expect(await queue.readBounded(jobDeltaBuffers(jobId))).toEqual([]);
});

test('a stalled stream falls back like a failed request', async () => {
  vendor.enqueue(openAIReplies.stream({ deltas: [{ content: 'Half' }], then: 'stall' }), openAIReplies.text('Done.'));
  const router = await buildRouter(catalog(), { providers: { alpha: {} } }, { ALPHA_KEY: 'k' }, queue, () => {});

  const outcome = await router.call({
    candidates,
    messages: [{ role: 'user', content: 'hi' }],
    live: liveCall(),
    stallMs: 300,
  });

  expect(outcome.reply.content).toBe('Done.');
  expect(outcome.hops).toEqual([
    { from_model: 'alpha-large', to_model: 'alpha-small', to_provider: 'alpha', reason: 'stream_stalled' },
  ]);
});

test('a call in progress keeps its partial output in a bounded buffer, newest deltas kept', async () => {
  const live = liveCall();
  const attempt = live.begin({ provider: 'alpha', model: 'alpha-large' });
  for (let i = 0; i < 50; i += 1) {
    attempt.piece({ kind: 'text', text: `${String(i).padStart(4, '0')} ` });
    await live.settled();
  }

  const [buffer] = await queue.readBounded(jobDeltaBuffers(jobId));
  const held = buffer!.map((entry) => JSON.parse(entry) as LiveDelta);
  expect(held.map((d) => d.text).join('')).toBe(
    Array.from({ length: 50 }, (_, i) => `${String(i).padStart(4, '0')} `).join(''),
  );

  const small = createLiveCall({
    queue,
    jobId,
    levelId,
    callId: `${levelId}#2`,
    attemptPrefix: '1',
    maxBufferBytes: 2_000,
    bufferTtlMs: 60_000,
  });
  const bounded = small.begin({ provider: 'alpha', model: 'alpha-large' });
  for (let i = 0; i < 50; i += 1) {
    bounded.piece({ kind: 'text', text: `${String(i).padStart(4, '0')} ` });
    await small.settled();
  }
  const lists = await queue.readBounded(jobDeltaBuffers(jobId));
  const kept = lists.find((l) => l.some((e) => e.includes('#2')))!;
  expect(kept.reduce((bytes, entry) => bytes + Buffer.byteLength(entry), 0)).toBeLessThanOrEqual(2_000);
  const last = JSON.parse(kept.at(-1)!) as LiveDelta;
  expect(last).toMatchObject({ text: '0049 ', offset: 49 * 5 });
});

test('an answer that ends while its last pieces wait to be written still sends them before the end', async () => {
  const seen = await collectDeltas();
  const live = liveCall();
  const attempt = live.begin({ provider: 'alpha', model: 'alpha-large' });
  // All at once, as a fast stream does: the first goes out, the rest wait for that write, then the call ends.
  attempt.piece({ kind: 'tool_arguments', text: '', toolCallIndex: 0, toolName: 'write_file' });
  attempt.piece({ kind: 'tool_arguments', text: '{"path":"notes.md",', toolCallIndex: 0 });
  attempt.piece({ kind: 'tool_arguments', text: '"content":"# Notes"}', toolCallIndex: 0 });
  attempt.end();
  await live.settled();
  await new Promise((resolve) => setImmediate(resolve));
  await seen.stop();

  expect(seen.deltas.map((d) => d.kind).at(-1)).toBe('end');
  const args = seen.deltas.filter((d) => d.kind === 'tool_arguments');
  expect(args[0]!.tool_name).toBe('write_file');
  expect(args.map((d) => d.text).join('')).toBe('{"path":"notes.md","content":"# Notes"}');
});
