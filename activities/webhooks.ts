import { ApplicationFailure, Context, log } from '@temporalio/activity';
import type { Pool } from 'pg';
import { finishDelivery, getJobWebhook, insertDeliveryAttempt, type DeliveryAttempt } from '../db/webhooks';
import type { EventEnvelope } from '../events/envelope';
import { WEBHOOK_ADDRESS_REFUSED, webhookDeliveryId, type WebhookDeliveryInput } from '../pure/webhook-delivery';
import { startDelivery } from '../webhooks/start-delivery';
import { guardedLookup, isAllowedHost, WebhookAddressRefused } from '../webhooks/address-guard';
import { webhookSettings, type WebhookSettings } from '../webhooks/config';
import { postOnce } from '../webhooks/post';
import { signatureHeader } from '../webhooks/signature';
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
 * Starts the delivery of a just-stored event when its job has a webhook subscribed to its kind. Called by the append
 * activity on every append of the event, a retried one too: the delivery's row and workflow id are the event's, so a
 * repeat records and starts nothing new (the workflow id is never reused, even after the first delivery closed).
 */
export async function startWebhookDelivery(deps: WebhookDeps, envelope: EventEnvelope): Promise<void> {
  if (!isWebhookEvent(envelope.kind)) return;
  const webhook = await getJobWebhook(deps.pool, envelope.job_id);
  if (!webhook || !webhook.events.includes(envelope.kind)) return;
  const deliveryId = webhookDeliveryId(envelope.job_id, envelope.sequence);
  const context = Context.current();
  await startDelivery(
    { pool: deps.pool, client: context.client, taskQueue: context.info.taskQueue, settings: settingsOf(deps) },
    { deliveryId, jobId: envelope.job_id, sequence: envelope.sequence, eventKind: envelope.kind, url: webhook.url },
  );
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
      const [webhook, envelope] = await Promise.all([
        getJobWebhook(deps.pool, input.jobId),
        storedEnvelope(deps.pool, input.jobId, input.sequence),
      ]);
      if (!webhook || !envelope) {
        throw ApplicationFailure.create({
          type: 'WebhookDeliveryGone',
          message: `job ${input.jobId} has no webhook or no event ${input.sequence}`,
          nonRetryable: true,
        });
      }
      const url = new URL(webhook.url);
      const body = JSON.stringify(envelope);
      const headers = {
        'keel-signature': signatureHeader(webhook.secret, body, Math.floor(Date.now() / 1000)),
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
