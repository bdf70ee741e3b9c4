import crypto from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deleteSubscription,
  expirePreviousSecret,
  insertSubscription,
  listSubscriptions,
  rotateSubscriptionSecret,
  type WebhookSubscriptionRow,
} from '../../db/webhook-subscriptions';
import type { Principal } from '../../jobs/visibility';
import { Forbidden, NotFound } from '../../refusals/refusal';
import { newWebhookSecret } from '../../webhooks/signature';
import { checkWebhookUrl, DEFAULT_WEBHOOK_EVENTS, WebhookRequestSchema } from '../../webhooks/subscription';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

const OrgId = z.string().regex(/^\S{1,128}$/, 'an org id: 1 to 128 characters without whitespace');
const Slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single dashes')
  .max(64);
const Target = z.object({ org: OrgId, slug: Slug });
const SubscriptionTarget = Target.extend({ subscription_id: z.string().regex(/^whsub_[0-9a-f]{16}$/) });

/** How long a rotated-out secret keeps signing unless the rotation says otherwise: a day (docs/webhooks.md). */
export const DEFAULT_OVERLAP_SECONDS = 86_400;
const MAX_OVERLAP_SECONDS = 7 * 86_400;

export const WebhookSubscriptionViewSchema = z.object({
  subscription_id: z.string().describe('part of the Keel-Delivery-Id of every delivery to this endpoint'),
  org_id: z.string(),
  project_slug: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  created_by: z.string(),
  created_at: z.string(),
  rotated_at: z.string().nullable(),
  previous_secret_expires_at: z
    .string()
    .nullable()
    .describe('until when the secret replaced by the last rotation still signs deliveries; null: only the current one'),
});

const WithSecretSchema = WebhookSubscriptionViewSchema.extend({
  secret: z.string().describe('the signing secret, shown once: no route reads it back'),
});

const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

function requireAdmin(principal: Principal): void {
  if (!principal.is_admin) {
    throw new Forbidden('admin_only', 'webhook subscriptions are read and changed by admins only');
  }
}

function view(row: WebhookSubscriptionRow): z.infer<typeof WebhookSubscriptionViewSchema> {
  // An overlap that has ended is not shown as one.
  const overlapEnds = row.previous_secret_expires_at;
  return {
    subscription_id: row.subscription_id,
    org_id: row.org_id,
    project_slug: row.project_slug,
    url: row.url,
    events: row.events,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    rotated_at: row.rotated_at?.toISOString() ?? null,
    previous_secret_expires_at: overlapEnds && overlapEnds.getTime() > Date.now() ? overlapEnds.toISOString() : null,
  };
}

/**
 * A project's webhook subscriptions (docs/webhooks.md, "Subscribing a project"), an admin's to list, create, delete
 * and rotate: every job of the project delivers its subscribed events to each, like a submission's own webhook.
 */
export function webhookSubscriptionRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  const base = '/v1/admin/webhook-subscriptions/orgs/:org/projects/:slug';
  return async (app) => {
    app.get(
      '/v1/admin/webhook-subscriptions',
      {
        schema: {
          querystring: z.strictObject({ org: OrgId.optional() }),
          response: { 200: z.object({ subscriptions: z.array(WebhookSubscriptionViewSchema) }), ...errors },
        },
      },
      async (request) => {
        requireAdmin(principalOf(request));
        return { subscriptions: (await listSubscriptions(deps.pool, { orgId: request.query.org })).map(view) };
      },
    );

    app.get(
      base,
      {
        schema: {
          params: Target,
          response: { 200: z.object({ subscriptions: z.array(WebhookSubscriptionViewSchema) }), ...errors },
        },
      },
      async (request) => {
        requireAdmin(principalOf(request));
        const { org, slug } = request.params;
        return { subscriptions: (await listSubscriptions(deps.pool, { orgId: org, projectSlug: slug })).map(view) };
      },
    );

    app.post(
      base,
      {
        schema: {
          params: Target,
          body: WebhookRequestSchema,
          response: { 201: WithSecretSchema, 404: ErrorSchema, ...errors },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        requireAdmin(principal);
        const { org, slug } = request.params;
        await checkWebhookUrl(request.body.url, deps.webhookAllowHosts ?? []);
        const secret = newWebhookSecret();
        const row = await insertSubscription(deps.pool, {
          subscriptionId: `whsub_${crypto.randomBytes(8).toString('hex')}`,
          orgId: org,
          projectSlug: slug,
          url: request.body.url,
          events: [...(request.body.events ?? DEFAULT_WEBHOOK_EVENTS)],
          secret,
          createdBy: principal.user_id,
        });
        if (!row) throw new NotFound(`project ${slug} of org ${org}`);
        return reply.code(201).send({ ...view(row), secret });
      },
    );

    app.delete(
      `${base}/:subscription_id`,
      { schema: { params: SubscriptionTarget, response: { 204: z.null(), 404: ErrorSchema, ...errors } } },
      async (request, reply) => {
        requireAdmin(principalOf(request));
        const { org, slug, subscription_id: id } = request.params;
        if (!(await deleteSubscription(deps.pool, org, slug, id))) throw new NotFound(`webhook subscription ${id}`);
        return reply.code(204).send(null);
      },
    );

    app.post(
      `${base}/:subscription_id/rotate-secret`,
      {
        schema: {
          params: SubscriptionTarget,
          body: z
            .strictObject({
              overlap_seconds: z
                .number()
                .int()
                .min(0)
                .max(MAX_OVERLAP_SECONDS)
                .default(DEFAULT_OVERLAP_SECONDS)
                .describe('how long the replaced secret still signs deliveries (a second v1=); 0: not at all'),
            })
            .default({ overlap_seconds: DEFAULT_OVERLAP_SECONDS }),
          response: { 200: WithSecretSchema, 404: ErrorSchema, ...errors },
        },
      },
      async (request) => {
        requireAdmin(principalOf(request));
        const { org, slug, subscription_id: id } = request.params;
        const secret = newWebhookSecret();
        const row = await rotateSubscriptionSecret(deps.pool, {
          orgId: org,
          projectSlug: slug,
          subscriptionId: id,
          secret,
          overlapSeconds: request.body.overlap_seconds,
        });
        if (!row) throw new NotFound(`webhook subscription ${id}`);
        return { ...view(row), secret };
      },
    );

    app.post(
      `${base}/:subscription_id/expire-previous-secret`,
      {
        schema: {
          params: SubscriptionTarget,
          response: { 200: WebhookSubscriptionViewSchema, 404: ErrorSchema, ...errors },
        },
      },
      async (request) => {
        requireAdmin(principalOf(request));
        const { org, slug, subscription_id: id } = request.params;
        const row = await expirePreviousSecret(deps.pool, org, slug, id);
        if (!row) throw new NotFound(`webhook subscription ${id}`);
        return view(row);
      },
    );
  };
}
