import type { RetryPolicy } from '@temporalio/workflow';

/** How every Keel workflow retries its bookkeeping activities: quickly at first, then every ten seconds at most. */
export const ACTIVITY_RETRY: RetryPolicy = {
  initialInterval: '500 milliseconds',
  backoffCoefficient: 2,
  maximumInterval: '10 seconds',
};
