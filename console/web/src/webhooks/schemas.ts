import * as z from 'zod/mini';

/** GET /api/v1/jobs/:id/webhook-deliveries (the ingest API's delivery log, docs/webhooks.md). */
export const WebhookAttempt = z.looseObject({
  attempt: z.number(),
  attempted_at: z.string(),
  status_code: z.nullable(z.number()),
  latency_ms: z.number(),
  ok: z.boolean(),
  error: z.nullable(z.string()),
});
export const WebhookDelivery = z.looseObject({
  delivery_id: z.string(),
  sequence: z.number(),
  event_kind: z.string(),
  url: z.string(),
  subscription_id: z.optional(z.nullable(z.string())),
  status: z.string(),
  created_at: z.string(),
  finished_at: z.nullable(z.string()),
  attempts: z.array(WebhookAttempt),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;
export const WebhookDeliveries = z.looseObject({ deliveries: z.array(WebhookDelivery) });
export const Redelivered = z.looseObject({ delivery_id: z.string() });

/** /api/v1/admin/webhook-subscriptions: a project's endpoints, never their secrets (shown once, at creation). */
export const WebhookSubscription = z.looseObject({
  subscription_id: z.string(),
  org_id: z.string(),
  project_slug: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  created_by: z.string(),
  created_at: z.string(),
  rotated_at: z.nullable(z.string()),
  previous_secret_expires_at: z.nullable(z.string()),
});
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;
export const WebhookSubscriptions = z.looseObject({ subscriptions: z.array(WebhookSubscription) });
export const WithSecret = z.looseObject({ subscription_id: z.string(), url: z.string(), secret: z.string() });

/** The kinds a subscription may name (webhooks/subscription.ts); final and error when none is picked. */
export const WEBHOOK_EVENTS = [
  'final',
  'error',
  'ask_user',
  'approval_requested',
  'human_task_assigned',
  'approval_decided',
  'reminder_sent',
  'escalated',
  'timed_out',
] as const;
