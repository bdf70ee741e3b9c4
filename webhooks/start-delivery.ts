import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy, type Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { insertDelivery } from '../db/webhooks';
import type { WebhookDeliveryInput } from '../pure/webhook-delivery';
import type { WebhookSettings } from './config';

export interface DeliveryStart {
  deliveryId: string;
  jobId: string;
  sequence: number;
  eventKind: string;
  url: string;
  /** The project subscription delivered to; absent or null: the job's own webhook. */
  subscriptionId?: string | null;
}

/**
 * Records a delivery and starts the workflow that makes it, under the delivery's id as workflow id. Idempotent: a
 * second call with the same id records nothing and starts nothing (Temporal refuses the id, even once the first
 * delivery has closed), so it is safe in an activity that may be retried.
 */
export async function startDelivery(
  deps: { pool: Pool; client: Client; taskQueue: string; settings: WebhookSettings },
  start: DeliveryStart,
): Promise<void> {
  await insertDelivery(deps.pool, start);
  const input: WebhookDeliveryInput = {
    deliveryId: start.deliveryId,
    jobId: start.jobId,
    sequence: start.sequence,
    attemptTimeoutMs: deps.settings.attemptTimeoutMs,
    initialIntervalMs: deps.settings.initialIntervalMs,
    maximumIntervalMs: deps.settings.maximumIntervalMs,
    maximumAttempts: deps.settings.maximumAttempts,
  };
  try {
    // By name: the domain does not import workflow code (docs/layout.md); workflows/webhook-delivery.ts takes `input`.
    await deps.client.workflow.start('deliverWebhookEvent', {
      workflowId: start.deliveryId,
      taskQueue: deps.taskQueue,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      staticSummary: `Webhook delivery of ${start.eventKind} (event ${start.sequence}) of ${start.jobId}${
        start.subscriptionId ? ` to subscription ${start.subscriptionId}` : ''
      }`,
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return;
    throw err;
  }
}
