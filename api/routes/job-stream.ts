import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../deps';
import { jobEventFeed } from '../../events/job-event-feed';
import { principalOf } from '../plugins/principal';
import { visibleJob } from '../../jobs/visibility';
import { streamLagSeconds } from '../../metrics/series';
import { eventStreamResponse } from '../../http/body-schemas';
import { acceptsMediaType } from '../../http/accepts-media-type';
import { AppError } from '../../http/errors';
import { Invalid } from '../../refusals/refusal';
import { STREAM_STOPPING_COMMENT } from '../../events/stream-comments';

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
    // they end (with the comment) before the server stops.
    const stopping = new AbortController();
    app.addHook('preClose', async () => stopping.abort());
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
          querystring: z.object({ last_event_id: LastEventId.optional() }),
          response: {
            200: eventStreamResponse(
              "the job's events from after Last-Event-ID, one `id:` (the sequence) and `data:` (the event as JSON) each; open until the job's final event",
            ),
          },
        },
      },
      async (request, reply) => {
        const job = await visibleJob(deps, principalOf(request), request.params.id);
        const after = lastEventId(request.headers['last-event-id'], request.query.last_event_id);
        const abort = new AbortController();
        reply.sse.onClose(() => abort.abort());
        const onStop = () => abort.abort();
        stopping.signal.addEventListener('abort', onStop);
        const feed = jobEventFeed({
          pool: deps.pool,
          queue: deps.queue,
          jobId: job.job_id,
          after,
          pollMs: deps.streamPollMs,
          signal: abort.signal,
        });
        async function* frames() {
          for await (const event of feed) {
            // A replay after Last-Event-ID counts too: a client that reconnects late sees the lag it got.
            streamLagSeconds.observe(Math.max(0, Date.now() - Date.parse(event.occurred_at)) / 1000);
            yield { id: String(event.sequence), data: event };
          }
        }
        try {
          await reply.sse.send(frames());
        } finally {
          stopping.signal.removeEventListener('abort', onStop);
        }
        if (stopping.signal.aborted && reply.sse.isConnected) {
          reply.sse.sendHeaders();
          reply.raw.write(`: ${STREAM_STOPPING_COMMENT}\n\n`);
        }
      },
    );
  };
}
