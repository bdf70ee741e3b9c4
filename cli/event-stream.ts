import { EventSourceParserStream } from 'eventsource-parser/stream';
import { eventEnvelope, type EventEnvelope } from '../events/envelope';
import { ApiError, apiClient, dataOf } from './api-client/client';

export { ApiError };

/** Turns a non-2xx response with Keel's `{ error: { code, message } }` body into an ApiError. */
export async function ensureOk(response: Response): Promise<Response> {
  if (response.ok) return response;
  const text = await response.text();
  let code = 'http_error';
  let message = text || response.statusText;
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
  } catch {
    // not JSON: keep the raw text
  }
  throw new ApiError(response.status, code, `${response.status} ${code}: ${message}`);
}

/**
 * Reads a job's event stream (`GET /v1/jobs/:id/stream`) and yields each envelope, validated.
 * Resumes after `lastEventId` when given. Ends when the server closes the stream (after `final` or
 * `error`) or when `signal` aborts.
 */
export async function* streamJobEvents(options: {
  baseUrl: string;
  token: string;
  jobId: string;
  lastEventId?: number;
  signal?: AbortSignal;
}): AsyncGenerator<EventEnvelope> {
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (options.lastEventId !== undefined) headers['last-event-id'] = String(options.lastEventId);
  const stream = dataOf(
    await apiClient(options.baseUrl, options.token).GET('/v1/jobs/{id}/stream', {
      params: { path: { id: options.jobId } },
      headers,
      parseAs: 'stream',
      signal: options.signal,
    }),
  );
  if (!stream) return;
  const messages = stream.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const message of messages) {
    yield eventEnvelope.parse(JSON.parse(message.data));
  }
}
