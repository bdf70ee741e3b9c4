import { openLiveDeltaFeed } from '../events/live-delta-feed';
import { createLiveCall } from '../events/live-output';
import type { LiveDelta as ServerDelta } from '../events/live-deltas';
import { createMemoryQueueStore } from '../queue/memory-queue-store';
import { readJobStream, type JobStreamFrame } from './job-stream';
import { readLiveDelta, type LiveDelta } from './live-delta';
import type { components } from './schema';

/**
 * A TypeScript user of clients/ reads a job's stream with typed deltas: what a worker publishes of a streaming model
 * call (events/live-output.ts), read back as the API's stream reads it (events/live-delta-feed.ts) and framed as the
 * stream sends it (`event: delta`, no `id:`), comes out of the client's reader as LiveDelta values, the type the
 * generated client names too.
 */

/** The generated client's type of a delta (the OpenAPI document's `components.schemas.LiveDelta`). */
type GeneratedDelta = components['schemas']['LiveDelta'];
/** Compiles only when A and B are the same type: the contract, the server's type and the generated one agree. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameAsGenerated: Same<LiveDelta, GeneratedDelta> = true;
const sameAsServer: Same<LiveDelta, ServerDelta> = true;

const jobId = 'job-client-stream';
const levelId = `${jobId}/L4.executor/1`;

/** A response body that sends `chunks` one after another, as the network hands them over (cut anywhere). */
function bodyOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function readAll(body: ReadableStream<Uint8Array>, onComment?: (comment: string) => void) {
  const frames: JobStreamFrame[] = [];
  for await (const frame of readJobStream(body, { onComment })) frames.push(frame);
  return frames;
}

test('the generated client and the contract name the same delta type', () => {
  expect(sameAsGenerated && sameAsServer).toBe(true);
});

test('a streamed delta, as a worker publishes it and the stream frames it, reads as a typed LiveDelta', async () => {
  const queue = createMemoryQueueStore({ prefix: 'test:' });
  const published: ServerDelta[] = [];
  let ended!: () => void;
  const callEnded = new Promise<void>((resolve) => (ended = resolve));
  const close = await openLiveDeltaFeed(queue, jobId, (delta) => {
    published.push(delta);
    if (delta.kind === 'end') ended();
  });
  try {
    const call = createLiveCall({
      queue,
      jobId,
      levelId,
      callId: `${levelId}#1`,
      attemptPrefix: '1',
      maxBufferBytes: 64 * 1024,
      bufferTtlMs: 60_000,
    });
    const attempt = call.begin({ provider: 'alpha', model: 'alpha-large' });
    attempt.piece({ kind: 'text', text: 'Writing the notes. ' });
    attempt.piece({ kind: 'tool_arguments', text: '{"path":"notes.md",', toolCallIndex: 0, toolName: 'write_file' });
    attempt.piece({ kind: 'tool_arguments', text: '"content":"# Notes"}', toolCallIndex: 0 });
    attempt.end();
    // The channel delivers after a hop, as over the network: the feed has all once it hands over the `end`.
    await callEnded;
  } finally {
    await close();
    await queue.close();
  }
  expect(published.map((d) => d.kind)).toContain('tool_arguments');

  // The stream as the API sends it: a durable event with its sequence, the deltas between events, a heartbeat.
  const envelope = { sequence: 7, kind: 'prompt_sent', payload: {} };
  const sse = [
    `id: 7\ndata: ${JSON.stringify(envelope)}\n\n`,
    ': heartbeat\n\n',
    ...published.map((delta) => `event: delta\ndata: ${JSON.stringify(delta)}\n\n`),
  ].join('');
  // Cut in pieces of 13 bytes: a message split across reads is put back together.
  const chunks = sse.match(/[\s\S]{1,13}/g)!;
  const comments: string[] = [];
  const frames = await readAll(bodyOf(chunks), (comment) => comments.push(comment));

  expect(frames[0]).toEqual({ type: 'event', id: '7', data: JSON.stringify(envelope) });
  expect(comments).toContain('heartbeat');
  const deltas: LiveDelta[] = frames.flatMap((frame) => (frame.type === 'delta' ? [frame.delta] : []));
  expect(deltas).toEqual(published);
  // Typed: the compiler knows each field, as a user's code reads them.
  const text = deltas.filter((d) => d.kind === 'text').map((d) => d.text);
  expect(text.join('')).toBe('Writing the notes. ');
  const args = deltas.filter((d) => d.kind === 'tool_arguments' && d.tool_call_index === 0);
  expect(args[0]).toMatchObject({ tool_name: 'write_file', offset: 0, level_id: levelId, model: 'alpha-large' });
  expect(JSON.parse(args.map((d) => d.text).join(''))).toEqual({ path: 'notes.md', content: '# Notes' });
  expect(deltas.at(-1)).toMatchObject({ kind: 'end', call_id: `${levelId}#1`, text: '' });
});

test('a delta that is not one is skipped, and the durable events around it still arrive', async () => {
  const frames = await readAll(
    bodyOf([
      'id: 1\ndata: {"sequence":1}\n\n',
      'event: delta\ndata: {"kind":"text"}\n\n',
      'event: delta\ndata: not json\n\n',
      'id: 2\ndata: {"sequence":2}\n\n',
    ]),
  );
  expect(frames).toEqual([
    { type: 'event', id: '1', data: '{"sequence":1}' },
    { type: 'event', id: '2', data: '{"sequence":2}' },
  ]);
  expect(readLiveDelta('{"kind":"unknown"}')).toBeUndefined();
});
