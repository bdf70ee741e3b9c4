import { EventSourceParserStream } from 'eventsource-parser/stream';
import { eventEnvelope, type EventEnvelope } from '../events/envelope';
import { dataOf } from '../clients/client';
import { reach, type ApiTarget } from './api-request';

export { ApiError, ensureOk } from './api-error';

/**
 * Reads a job's event stream (`GET /v1/jobs/:id/stream`) and yields each envelope, validated.
 * Resumes after `lastEventId` when given. Ends when the server closes the stream (after `final` or
 * `error`, or when it stops: `onComment` hears its closing comment) or when `signal` aborts.
 */
export async function* streamJobEvents(options: {
  baseUrl: string;
  token: string;
  /** Where `baseUrl` came from, said when it cannot be reached. */
  source?: string;
  jobId: string;
  lastEventId?: number;
  signal?: AbortSignal;
  onComment?: (comment: string) => void;
}): AsyncGenerator<EventEnvelope> {
  const target: ApiTarget = { baseUrl: options.baseUrl, token: options.token, source: options.source ?? 'the caller' };
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.lastEventId !== undefined) headers['last-event-id'] = String(options.lastEventId);
  const stream = await reach(target, async (client) =>
    dataOf(
      await client.GET('/v1/jobs/{id}/stream', {
        params: { path: { id: options.jobId } },
        headers,
        parseAs: 'stream',
        signal: options.signal,
      }),
    ),
  );
  if (!stream) return;
  // The signal also goes to the pipe, which then cancels the body itself: Node 20's fetch can lose an abort given
  // through a Request (openapi-fetch makes one) once a garbage collection has run, and the stream then stayed open,
  // so `keel job` printed "detached" and never exited.
  const messages = stream
    .pipeThrough(new TextDecoderStream(), { signal: options.signal })
    .pipeThrough(new EventSourceParserStream({ onComment: (comment) => options.onComment?.(comment.trim()) }));
  for await (const message of messages) {
    yield eventEnvelope.parse(JSON.parse(message.data));
  }
}
