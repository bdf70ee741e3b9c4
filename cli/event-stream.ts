import { eventEnvelope, type EventEnvelope } from '../events/envelope';
import { dataOf } from '../clients/client';
import { readJobStream } from '../clients/job-stream';
import type { LiveDelta } from '../clients/live-delta';
import { reach, type ApiTarget } from './api-request';

export { ApiError, ensureOk } from './api-error';

export interface JobStreamOptions {
  baseUrl: string;
  token: string;
  /** Where `baseUrl` came from, said when it cannot be reached. */
  source?: string;
  jobId: string;
  lastEventId?: number;
  signal?: AbortSignal;
  onComment?: (comment: string) => void;
}

/** One message of a job's stream: a durable event, or a delta of live model output (docs/live-output.md). */
export type JobStreamMessage = { type: 'event'; event: EventEnvelope } | { type: 'delta'; delta: LiveDelta };

/**
 * Reads a job's event stream (`GET /v1/jobs/:id/stream`) and yields each envelope, validated: durable events only
 * (the stream is asked for no deltas). Resumes after `lastEventId` when given. Ends when the server closes the stream
 * (after `final` or `error`, or when it stops: `onComment` hears its closing comment) or when `signal` aborts.
 */
export async function* streamJobEvents(options: JobStreamOptions): AsyncGenerator<EventEnvelope> {
  for await (const message of followJobStream(options, false)) {
    if (message.type === 'event') yield message.event;
  }
}

/**
 * As `streamJobEvents`, with the job's live model output between the events: the partial output of each call in
 * progress first, then each delta as it streams. A delta that does not parse is skipped (the durable events are the
 * truth; deltas are only the animation).
 */
export function streamJobMessages(options: JobStreamOptions): AsyncGenerator<JobStreamMessage> {
  return followJobStream(options, true);
}

async function* followJobStream(options: JobStreamOptions, deltas: boolean): AsyncGenerator<JobStreamMessage> {
  const target: ApiTarget = { baseUrl: options.baseUrl, token: options.token, source: options.source ?? 'the caller' };
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.lastEventId !== undefined) headers['last-event-id'] = String(options.lastEventId);
  const stream = await reach(target, async (client) =>
    dataOf(
      await client.GET('/v1/jobs/{id}/stream', {
        params: { path: { id: options.jobId }, query: deltas ? {} : { deltas: '0' } },
        headers,
        parseAs: 'stream',
        signal: options.signal,
      }),
    ),
  );
  if (!stream) return;
  for await (const frame of readJobStream(stream, { signal: options.signal, onComment: options.onComment })) {
    if (frame.type === 'delta') {
      if (deltas) yield frame;
      continue;
    }
    yield { type: 'event', event: eventEnvelope.parse(JSON.parse(frame.data)) };
  }
}
