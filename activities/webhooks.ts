import { ApplicationFailure, Context, log } from '@temporalio/activity';
import type { Pool } from 'pg';
import { getSubscriptionSecrets, subscriptionsOfJob } from '../db/webhook-subscriptions';
import {
  deliveryTarget,
  finishDelivery,
  getJobWebhook,
  insertDeliveryAttempt,
  type DeliveryAttempt,
} from '../db/webhooks';
import type { EventEnvelope } from '../events/envelope';
import { WEBHOOK_ADDRESS_REFUSED, webhookDeliveryId, type WebhookDeliveryInput } from '../pure/webhook-delivery';
import { startDelivery } from '../webhooks/start-delivery';
import { guardedLookup, isAllowedHost, WebhookAddressRefused } from '../webhooks/address-guard';
import { webhookSettings, type WebhookSettings } from '../webhooks/config';
import { postOnce } from '../webhooks/post';
import { signatureHeader, signingSecrets } from '../webhooks/signature';
import { isWebhookEvent } from '../webhooks/subscription';

export interface WebhookDeps {
  pool: Pool;
  /** Absent: production defaults with no allowed host (webhooks/config.ts). */
  webhooks?: WebhookSettings;
}

function settingsOf(deps: WebhookDeps): WebhookSettings {
  return deps.webhooks ?? webhookSettings({ WEBHOOK_ALLOW_HOSTS: [] });
}

/**
 * Starts the deliveries of a just-stored event: to the job's own webhook and to each subscription of the job's project
 * subscribed to its kind. Called by the append activity on every append of the event, a retried one too: a delivery's
 * row and workflow id are the (event, endpoint)'s, so a repeat records and starts nothing new (the workflow id is never
 * reused, even after the first delivery closed).
 */
export async function startWebhookDelivery(deps: WebhookDeps, envelope: EventEnvelope): Promise<void> {
  if (!isWebhookEvent(envelope.kind)) return;
  const [webhook, subscriptions] = await Promise.all([
    getJobWebhook(deps.pool, envelope.job_id),
    subscriptionsOfJob(deps.pool, envelope.job_id),
  ]);
  const targets = [
    ...(webhook ? [{ subscription_id: null, url: webhook.url, events: webhook.events }] : []),
    ...subscriptions,
  ].filter((target) => target.events.includes(envelope.kind));
  if (targets.length === 0) return;
  const context = Context.current();
  for (const target of targets) {
    await startDelivery(
      { pool: deps.pool, client: context.client, taskQueue: context.info.taskQueue, settings: settingsOf(deps) },
      {
        deliveryId: webhookDeliveryId(envelope.job_id, envelope.sequence, target.subscription_id),
        jobId: envelope.job_id,
        sequence: envelope.sequence,
        eventKind: envelope.kind,
        url: target.url,
        subscriptionId: target.subscription_id,
      },
    );
  }
}

/**
 * Where a delivery goes now and the secrets that sign it: the job's own webhook, or the project subscription the
 * delivery was recorded for (its current URL; its previous secret too while a rotation's overlap lasts).
 */
async function endpointOf(
  pool: Pool,
  input: WebhookDeliveryInput,
): Promise<{ url: string; secrets: string[] } | undefined> {
  const target = await deliveryTarget(pool, input.deliveryId);
  if (target?.subscriptionId) {
    const sub = await getSubscriptionSecrets(pool, target.subscriptionId);
    return sub ? { url: sub.url, secrets: signingSecrets(sub, new Date()) } : undefined;
  }
  const webhook = await getJobWebhook(pool, input.jobId);
  return webhook ? { url: webhook.url, secrets: [webhook.secret] } : undefined;
}

/** The stored event a delivery carries, exactly as the job's stream serves it. */
async function storedEnvelope(pool: Pool, jobId: string, sequence: number): Promise<EventEnvelope | undefined> {
  const { rows } = await pool.query<{ envelope: EventEnvelope }>(
    'SELECT envelope FROM job_events WHERE job_id = $1 AND sequence = $2',
    [jobId, sequence],
  );
  return rows[0]?.envelope;
}

export function webhookActivities(deps: WebhookDeps) {
  return {
    /**
     * One delivery attempt: the stored event as JSON, signed with the job's secret at this moment, POSTed with the
     * delivery's id as `Keel-Delivery-Id` (the same on every attempt, so a receiver drops repeats). The attempt is
     * logged whatever happens; anything but a 2xx throws, so Temporal retries on the workflow's schedule. An endpoint
     * that now resolves to a private address is refused without a retry.
     */
    async postWebhookEvent(input: WebhookDeliveryInput): Promise<{ statusCode: number }> {
      const settings = settingsOf(deps);
      const attempt = Context.current().info.attempt;
      const [endpoint, envelope] = await Promise.all([
        endpointOf(deps.pool, input),
        storedEnvelope(deps.pool, input.jobId, input.sequence),
      ]);
      if (!endpoint || !envelope) {
        // A subscription deleted since: its pending deliveries end `failed`, without retries.
        throw ApplicationFailure.create({
          type: 'WebhookDeliveryGone',
          message: `delivery ${input.deliveryId}: no webhook or subscription to deliver to, or no event ${input.sequence}`,
          nonRetryable: true,
        });
      }
      const url = new URL(endpoint.url);
      const body = JSON.stringify(envelope);
      const headers = {
        'keel-signature': signatureHeader(endpoint.secrets, body, Math.floor(Date.now() / 1000)),
        'keel-delivery-id': input.deliveryId,
        'keel-event': envelope.kind,
        'user-agent': 'Keel-Webhooks/1',
      };
      const started = performance.now();
      const logAttempt = (a: Omit<DeliveryAttempt, 'attempt' | 'latencyMs'>) =>
        insertDeliveryAttempt(deps.pool, input.deliveryId, {
          ...a,
          attempt,
          latencyMs: Math.round(performance.now() - started),
        });
      let statusCode: number;
      try {
        statusCode = await postOnce(url, body, headers, {
          timeoutMs: settings.attemptTimeoutMs,
          // An allowed host (a laptop's receiver) may be private; every other host is checked on the address used.
          lookup: isAllowedHost(url, settings.allowHosts) ? undefined : guardedLookup(),
        });
      } catch (err) {
        const refused = err instanceof WebhookAddressRefused;
        const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        await logAttempt({ statusCode: null, ok: false, error: message.slice(0, 500) });
        throw ApplicationFailure.create({
          type: refused ? WEBHOOK_ADDRESS_REFUSED : 'WebhookUnreachable',
          message: `delivery ${input.deliveryId}: ${message}`,
          nonRetryable: refused,
        });
      }
      const ok = statusCode >= 200 && statusCode < 300;
      await logAttempt({ statusCode, ok, error: ok ? null : `answered ${statusCode}` });
      if (!ok) {
        throw ApplicationFailure.create({
          type: 'WebhookRejected',
          message: `delivery ${input.deliveryId}: the endpoint answered ${statusCode}`,
        });
      }
      log.info('webhook delivered', { deliveryId: input.deliveryId, attempt, statusCode });
      return { statusCode };
    },

    /** Records how a delivery ended (idempotent: only a pending delivery changes). */
    async finishWebhookDelivery(input: { deliveryId: string; status: 'delivered' | 'failed' }): Promise<void> {
      await finishDelivery(deps.pool, input.deliveryId, input.status);
    },
  };
}
