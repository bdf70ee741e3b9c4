import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../deps';
import { jobEventFeed } from '../../events/job-event-feed';
import { principalOf } from '../plugins/principal';
import { visibleJob } from '../../jobs/visibility';
import { findJobShared } from '../../db/jobs';
import { streamLagSeconds } from '../../metrics/series';
import { eventStreamResponse } from '../../http/body-schemas';
import { acceptsMediaType } from '../../http/accepts-media-type';
import { AppError } from '../../http/errors';
import { Invalid } from '../../refusals/refusal';
import { STREAM_INTERRUPTED_COMMENT, STREAM_STOPPING_COMMENT } from '../../events/stream-comments';
import { openLiveDeltaFeed } from '../../events/live-delta-feed';
import { withLiveDeltas, type SseFrame } from '../../events/with-live-deltas';
import { writePerTurn } from '../../http/write-per-turn';

/** Event sequences are PostgreSQL `integer`s; a larger id names no event and would fail in the database. */
const MAX_SEQUENCE = 2 ** 31 - 1;

const LastEventId = z.coerce.number().int().min(0).max(MAX_SEQUENCE);

/**
 * Last-Event-ID from the header (reconnecting EventSource) or `?last_event_id=` (first connect). The ids are the
 * sequences this stream sent, so anything but one of them is refused (400) rather than ignored.
 */
function lastEventId(header: string | string[] | undefined, query: number | undefined): number {
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw === undefined || raw.trim() === '') return query ?? 0;
  const parsed = /^\d+$/.test(raw.trim()) ? LastEventId.safeParse(raw.trim()) : undefined;
  if (!parsed?.success) {
    throw new Invalid('invalid_request', `Last-Event-ID: must be an event sequence, 0 to ${MAX_SEQUENCE}`);
  }
  return parsed.data;
}

/**
 * Live events reach every stream of a job as one shared envelope (jobs/live-events.ts), so each is serialized once
 * and the text reused for every other stream; replayed rows are each stream's own and are serialized as they come.
 */
const serialized = new WeakMap<object, string>();
function serializeOnce(data: unknown): string {
  if (typeof data !== 'object' || data === null) return JSON.stringify(data);
  let text = serialized.get(data);
  if (text === undefined) serialized.set(data, (text = JSON.stringify(data)));
  return text;
}

export function jobStreamRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Open streams never finish on their own while a job waits, so closing the server would wait on them forever:
    // they end (with the comment) before the server stops. Each stream is in this set rather than listening on one
    // shared signal, whose listeners would pass Node's limit of 10 (a MaxListenersExceededWarning) at the 11th stream.
    const open = new Set<AbortController>();
    let stopping = false;
    app.addHook('preClose', async () => {
      stopping = true;
      for (const stream of open) stream.abort();
    });
    app.get(
      '/v1/jobs/:id/stream',
      {
        sse: { kind: 'only', heartbeat: true, serializer: serializeOnce },
        // The SSE plugin answers a client that refuses event streams with a body of its own shape; this refusal comes
        // first, in the API's. Default clients (`Accept: */*`) and clients that send none get the stream.
        preHandler: async (request) => {
          const accept = request.headers.accept;
          if (!acceptsMediaType(accept, 'text/event-stream')) {
            throw new AppError(
              406,
              'not_acceptable',
              `this endpoint only produces text/event-stream (Accept: ${accept})`,
            );
          }
        },
        schema: {
          params: z.object({ id: z.string().min(1).max(100) }),
          querystring: z.object({
            last_event_id: LastEventId.optional(),
            deltas: z
              .enum(['0', '1'])
              .optional()
              .describe(
                "`0`: durable events only, no `event: delta` messages (for scripts); `1` (the default): the job's live model output too",
              ),
          }),
          response: {
            200: eventStreamResponse(
              "the job's events from after Last-Event-ID, one `id:` (the sequence) and `data:` (the event as JSON) each; open until the job's final event. Unless `deltas=0`, live model output travels between them as `event: delta` messages with no `id:`, each `data:` a `LiveDelta` (components.schemas; docs/live-output.md): first the partial output of each call in progress, then the rest as it streams",
            ),
          },
        },
      },
      async (request, reply) => {
        // Many streams of one job open together (a reconnect storm): they share the job's read.
        const job = await visibleJob(deps, principalOf(request), request.params.id, findJobShared);
        const after = lastEventId(request.headers['last-event-id'], request.query.last_event_id);
        const abort = new AbortController();
        // Set when the client went away: what fails after that is no failure of the service.
        let clientGone = false;
        reply.sse.onClose(() => {
          clientGone = true;
          abort.abort();
        });
        open.add(abort);
        if (stopping) abort.abort();
        const feed = jobEventFeed({
          pool: deps.pool,
          queue: deps.queue,
          jobId: job.job_id,
          after,
          pollMs: deps.streamPollMs,
          signal: abort.signal,
        });
        async function* durableFrames(): AsyncGenerator<SseFrame> {
          for await (const event of feed) {
            // A replay after Last-Event-ID counts too: a client that reconnects late sees the lag it got.
            streamLagSeconds.observe(Math.max(0, Date.now() - Date.parse(event.occurred_at)) / 1000);
            yield { id: String(event.sequence), data: event };
          }
        }
        let closing: string | undefined;
        try {
          const frames =
            request.query.deltas === '0'
              ? durableFrames()
              : withLiveDeltas(durableFrames(), (onDelta) => openLiveDeltaFeed(deps.queue, job.job_id, onDelta));
          await reply.sse.send(writePerTurn(frames, reply.raw));
          if (stopping) closing = STREAM_STOPPING_COMMENT;
        } catch (err) {
          if (clientGone) {
            request.log.debug({ err }, 'job stream closed by its client');
            return;
          }
          // Nothing sent yet: the error handler can still answer (503 for a database that went away).
          if (!reply.raw.headersSent) throw err;
          // The stream is under way (its 200 and events are sent), so no error answer can follow: a failed dependency
          // (the database gone mid-stream) ends it with a comment the client can act on, and the log says why at
          // `warn`: the service goes on, and the client resumes from its Last-Event-ID. Left to Fastify, it was an
          // `error` line ("Promise errored, but reply.sent = true") and a stream cut off without a word.
          request.log.warn({ err, job_id: job.job_id }, 'job stream ended: a dependency failed');
          closing = STREAM_INTERRUPTED_COMMENT;
        } finally {
          open.delete(abort);
        }
        if (closing && reply.sse.isConnected) {
          reply.sse.sendHeaders();
          reply.raw.write(`: ${closing}\n\n`);
        }
      },
    );
  };
}
