import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { WEBHOOK_ADDRESS_REFUSED, type WebhookDeliveryInput } from '../pure/webhook-delivery';

// Recording the outcome is bookkeeping: retried until the database takes it.
const { finishWebhookDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/**
 * Delivers one stored event to its job's webhook: one POST per activity attempt, retried with exponential backoff up to
 * the input's limit (each attempt is logged by the activity), then the delivery is recorded `delivered` or `failed`.
 * At least once: a worker lost mid-POST is retried, and the receiver drops the repeat by `Keel-Delivery-Id`.
 */
export async function deliverWebhookEvent(input: WebhookDeliveryInput): Promise<'delivered' | 'failed'> {
  // Proxied here, not at module scope: the schedule is the worker's setting, carried in the input so a test need not
  // wait production's minutes.
  const { postWebhookEvent } = proxyActivities<Activities>({
    // The activity's own request timeout fires first; this only bounds a worker that hangs.
    startToCloseTimeout: input.attemptTimeoutMs + 5_000,
    retry: {
      initialInterval: input.initialIntervalMs,
      backoffCoefficient: 2,
      maximumInterval: input.maximumIntervalMs,
      maximumAttempts: input.maximumAttempts,
      nonRetryableErrorTypes: [WEBHOOK_ADDRESS_REFUSED],
    },
  });
  let outcome: 'delivered' | 'failed' = 'delivered';
  try {
    await postWebhookEvent(input);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    outcome = 'failed';
  }
  await finishWebhookDelivery({ deliveryId: input.deliveryId, status: outcome });
  return outcome;
}
