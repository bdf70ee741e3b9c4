import { z } from 'zod';
import { Invalid } from '../refusals/refusal';
import { checkWebhookAddress, isAllowedHost, WebhookAddressRefused } from './address-guard';

/** The event kinds a webhook may subscribe to; `final` and `error` when a subscription names none. */
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
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEvent[] = ['final', 'error'];

export function isWebhookEvent(kind: string): kind is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(kind);
}

/** `webhook` in a `POST /v1/chat` body. Plain http passes here and is refused later unless its host is allowed. */
export const WebhookRequestSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'an https URL' })
    .max(2048)
    .describe('https endpoint; http and loopback or private addresses only for hosts in WEBHOOK_ALLOW_HOSTS'),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1)
    .max(WEBHOOK_EVENTS.length)
    .refine((events) => new Set(events).size === events.length, 'events must not repeat')
    .optional()
    .describe('event kinds to deliver; final and error when absent'),
});
export type WebhookRequest = z.infer<typeof WebhookRequestSchema>;

export type { WebhookSubscription } from '../db/webhooks';

/**
 * Refuses (400) a webhook URL that is plain http or resolves to a loopback or private address, unless its host is in
 * WEBHOOK_ALLOW_HOSTS (docs/webhooks.md).
 */
export async function checkWebhookUrl(raw: string, allowHosts: readonly string[]): Promise<void> {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !isAllowedHost(url, allowHosts)) {
    throw new Invalid('webhook_url_refused', 'webhook.url: must be https (http only for hosts in WEBHOOK_ALLOW_HOSTS)');
  }
  if (url.username || url.password) {
    throw new Invalid('webhook_url_refused', 'webhook.url: must not carry credentials');
  }
  try {
    await checkWebhookAddress(url, allowHosts);
  } catch (err) {
    if (err instanceof WebhookAddressRefused) {
      throw new Invalid('webhook_url_refused', `webhook.url: ${err.message} (allow it with WEBHOOK_ALLOW_HOSTS)`);
    }
    throw err;
  }
}
