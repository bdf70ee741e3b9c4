import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import { isTerminalStatus, recordCanceller, setJobStatus, type JobRow } from '../db/jobs';
import { Conflict } from '../refusals/refusal';
import type { JobsDeps } from './deps';
import { temporalCall } from '../temporal/temporal-call';

/** How long a cancel flag stays in the queue store: longer than any job should run. */
const CANCEL_FLAG_TTL_MS = 7 * 24 * 3600 * 1000;

export function cancelFlagKey(jobId: string): string {
  return `job:${jobId}:cancel`;
}

/**
 * Cancels a visible, unfinished job: Temporal cancellation, which reaches the running child workflow and its
 * activities, then a flag in the queue store. A finished job is a 409. Temporal unreachable refuses the cancel with a
 * 503 before anything is recorded, so a cancel is either delivered or refused, never half-done. `by` (the user the
 * request acts for) is kept on the job's error as `cancelled_by`, so every page can say who cancelled it.
 */
export async function cancelJob(deps: JobsDeps, job: JobRow, log: FastifyBaseLogger, by?: string): Promise<void> {
  if (isTerminalStatus(job.status)) {
    throw new Conflict('job_finished', `job ${job.job_id} is already ${job.status}`);
  }
  try {
    await temporalCall(deps, 'the cancel was not delivered', () =>
      deps.temporal.workflow.getHandle(job.job_id).cancel(),
    );
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
  // The flag only lets other replicas see the cancel early; a queue store (Redis) outage does not undo it.
  await deps.queue
    .setFlag(cancelFlagKey(job.job_id), CANCEL_FLAG_TTL_MS)
    .catch((err: unknown) => log.warn({ err }, 'could not set the cancel flag'));
  // Best effort, so a UI unsticks even if the worker is down; the workflow records it too.
  await setJobStatus(deps.pool, job.job_id, 'cancelled', {
    error: { code: 'cancelled', message: 'cancelled by the user', ...(by ? { cancelled_by: by } : {}) },
  }).catch((err: unknown) => log.warn({ err }, 'could not record the cancellation'));
  // The worker may have recorded the cancel first (its own error, without a name): the canceller is added either way.
  if (by) {
    await recordCanceller(deps.pool, job.job_id, by).catch((err: unknown) =>
      log.warn({ err }, 'could not record who cancelled the job'),
    );
  }
}
