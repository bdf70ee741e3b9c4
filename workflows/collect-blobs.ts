import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

// One activity walks the whole store; it heartbeats after each batch it sweeps, so a worker that dies is noticed and
// the retry starts the walk again (deleting is idempotent, and every deletion re-checks references under the lock).
const { collectUnreferencedBlobs } = proxyActivities<Activities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '5 minutes',
  retry: { initialInterval: '30 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 5 },
});

export interface CollectBlobsInput {
  /** An unreferenced blob is deleted once it was stored longer ago than this. */
  retentionHours: number;
}

/**
 * Garbage collection of the workspace blob store, started by its schedule (temporal/blob-gc-schedule.ts): deletes the
 * blobs no manifest names that are older than the retention, and keeps every blob a manifest still names.
 */
export async function collectWorkspaceBlobs(input: CollectBlobsInput) {
  return collectUnreferencedBlobs({ retentionHours: input.retentionHours });
}
