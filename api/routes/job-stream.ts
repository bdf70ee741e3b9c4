import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../deps';
import { jobEventFeed } from '../../jobs/job-event-feed';
import { principalOf } from '../plugins/principal';
import { visibleJob } from '../../jobs/visibility';
import { streamLagSeconds } from '../../metrics/series';

/** Last-Event-ID from the header (reconnecting EventSource) or `?last_event_id=` (first connect). */
function lastEventId(header: string | string[] | undefined, query: number | undefined): number {
  const raw = Array.isArray(header) ? header[0] : header;
  const fromHeader = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : undefined;
  return fromHeader ?? query ?? 0;
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
    app.get(
      '/v1/jobs/:id/stream',
      {
        sse: { kind: 'only', heartbeat: true, serializer: serializeOnce },
        schema: {
          params: z.object({ id: z.string().min(1).max(100) }),
          querystring: z.object({ last_event_id: z.coerce.number().int().min(0).optional() }),
        },
      },
      async (request, reply) => {
        const job = await visibleJob(deps, principalOf(request), request.params.id);
        const after = lastEventId(request.headers['last-event-id'], request.query.last_event_id);
        const abort = new AbortController();
        reply.sse.onClose(() => abort.abort());
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
        await reply.sse.send(frames());
      },
    );
  };
}
