import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getSubscriptionSecrets } from '../../db/webhook-subscriptions';
import { getJobWebhook, listDeliveries } from '../../db/webhooks';
import { visibleJob } from '../../jobs/visibility';
import { webhookDeliveryId } from '../../pure/webhook-delivery';
import { NotFound } from '../../refusals/refusal';
import { webhookSettings } from '../../webhooks/config';
import { startDelivery } from '../../webhooks/start-delivery';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

const JobParams = z.object({ id: z.string().min(1).max(100) });
const DeliveryParams = JobParams.extend({ delivery_id: z.string().min(1).max(200) });

export const WebhookDeliverySchema = z.object({
  delivery_id: z.string().describe('sent as Keel-Delivery-Id on every attempt of this delivery'),
  sequence: z.number().int().describe('the delivered event, by its sequence in the job'),
  event_kind: z.string(),
  url: z.string(),
  subscription_id: z
    .string()
    .nullable()
    .describe("the project's webhook subscription delivered to; null: the submission's own webhook"),
  status: z.enum(['pending', 'delivered', 'failed']),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  attempts: z.array(
    z.object({
      attempt: z.number().int(),
      attempted_at: z.string(),
      status_code: z.number().int().nullable().describe("the endpoint's answer; null when none came"),
      latency_ms: z.number().int(),
      ok: z.boolean(),
      error: z.string().nullable(),
    }),
  ),
});

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/** A job's webhook delivery log, and redelivery of one event (docs/webhooks.md). Scoped to the job like /v1/jobs/:id. */
export function webhookDeliveryRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/jobs/:id/webhook-deliveries',
      {
        schema: {
          params: JobParams,
          response: { 200: z.object({ deliveries: z.array(WebhookDeliverySchema) }), 404: ErrorSchema },
        },
      },
      async (request) => {
        const job = await visibleJob(deps, principalOf(request), request.params.id);
        const rows = await listDeliveries(deps.pool, job.job_id);
        return {
          deliveries: rows.map((row) => ({
            delivery_id: row.delivery_id,
            sequence: row.sequence,
            event_kind: row.event_kind,
            url: row.url,
            subscription_id: row.subscription_id,
            status: row.status,
            created_at: iso(row.created_at)!,
            finished_at: iso(row.finished_at),
            attempts: row.attempts.map((a) => ({ ...a, attempted_at: iso(a.attempted_at)! })),
          })),
        };
      },
    );

    app.post(
      '/v1/jobs/:id/webhook-deliveries/:delivery_id/redeliver',
      {
        schema: {
          params: DeliveryParams,
          response: {
            202: z.object({ delivery_id: z.string().describe('the new delivery, with its own attempts') }),
            404: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const job = await visibleJob(deps, principalOf(request), request.params.id);
        const rows = await listDeliveries(deps.pool, job.job_id);
        const original = rows.find((row) => row.delivery_id === request.params.delivery_id);
        if (!original) throw new NotFound(`webhook delivery ${request.params.delivery_id}`);
        // To the endpoint the original went to, at its current URL: the job's own webhook or the project subscription
        // (gone when it was deleted since).
        const subscriptionId = original.subscription_id;
        const endpoint = subscriptionId
          ? await getSubscriptionSecrets(deps.pool, subscriptionId)
          : await getJobWebhook(deps.pool, job.job_id);
        if (!endpoint) throw new NotFound(`webhook delivery ${request.params.delivery_id}`);
        // A redelivery is a new delivery of the same event: numbered after the event's earlier ones to that endpoint.
        const earlier = rows.filter(
          (row) => row.sequence === original.sequence && row.subscription_id === subscriptionId,
        ).length;
        const deliveryId = `${webhookDeliveryId(job.job_id, original.sequence, subscriptionId)}-r${earlier}`;
        await startDelivery(
          {
            pool: deps.pool,
            client: deps.temporal,
            taskQueue: deps.taskQueue,
            settings: webhookSettings({ WEBHOOK_ALLOW_HOSTS: [...(deps.webhookAllowHosts ?? [])] }),
          },
          {
            deliveryId,
            jobId: job.job_id,
            sequence: original.sequence,
            eventKind: original.event_kind,
            url: endpoint.url,
            subscriptionId,
          },
        );
        return reply.code(202).send({ delivery_id: deliveryId });
      },
    );
  };
}
