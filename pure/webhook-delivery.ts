/** What the webhook delivery workflow and the activities around it share (workflow-safe: no I/O). */

/** An endpoint refused at delivery (it resolves to a private address now): retrying cannot help. */
export const WEBHOOK_ADDRESS_REFUSED = 'WebhookAddressRefused';

export interface WebhookDeliveryInput {
  deliveryId: string;
  jobId: string;
  /** The stored event to deliver, by its sequence in the job. */
  sequence: number;
  /** The retry schedule, from the worker's settings when the delivery started (ms). */
  attemptTimeoutMs: number;
  initialIntervalMs: number;
  maximumIntervalMs: number;
  maximumAttempts: number;
}

/**
 * The delivery's id, also its Temporal workflow id: one per (job, event, endpoint), so a retried append (or one whose
 * worker was killed after storing the event) starts nothing new — Temporal refuses a second workflow with the id. The
 * job's own webhook keeps the id it always had; a project subscription's delivery carries the subscription's id.
 */
export function webhookDeliveryId(jobId: string, sequence: number, subscriptionId?: string | null): string {
  return subscriptionId ? `webhook-${jobId}-${sequence}-${subscriptionId}` : `webhook-${jobId}-${sequence}`;
}
