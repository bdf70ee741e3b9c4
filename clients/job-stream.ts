import { EventSourceParserStream } from 'eventsource-parser/stream';
import { readLiveDelta, type LiveDelta } from './live-delta';

/**
 * One message of a job's stream (`GET /v1/jobs/:id/stream`): a durable event, with its sequence as `id` and its JSON
 * as `data` (the event envelope, docs/events.md), or a delta of live model output, typed (./live-delta.ts).
 */
export type JobStreamFrame =
  { type: 'event'; id: string | undefined; data: string } | { type: 'delta'; delta: LiveDelta };

export interface JobStreamReadOptions {
  /** Aborts the read: the body is cancelled. */
  signal?: AbortSignal;
  /** Hears each comment the server sends (a heartbeat, the closing `: stopping` or `: interrupted`). */
  onComment?: (comment: string) => void;
}

/**
 * Reads the body of a job's stream as it arrives: each durable event as its `id` and `data`, each `event: delta`
 * message as a typed LiveDelta. A delta that does not parse is skipped (deltas are only the animation; the durable
 * events are the truth). Ends with the body.
 */
export async function* readJobStream(
  body: ReadableStream<Uint8Array>,
  options: JobStreamReadOptions = {},
): AsyncGenerator<JobStreamFrame> {
  // The signal also goes to the pipe, which then cancels the body itself: Node 20's fetch can lose an abort given
  // through a Request (openapi-fetch makes one) once a garbage collection has run, and the stream then stayed open.
  const messages = body
    .pipeThrough(new TextDecoderStream(), { signal: options.signal })
    .pipeThrough(new EventSourceParserStream({ onComment: (comment) => options.onComment?.(comment.trim()) }));
  for await (const message of messages) {
    if (message.event === 'delta') {
      const delta = readLiveDelta(message.data);
      if (delta) yield { type: 'delta', delta };
      continue;
    }
    yield { type: 'event', id: message.id, data: message.data };
  }
}
