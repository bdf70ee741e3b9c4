import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  WorkflowUpdateStage,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { FastifyBaseLogger } from 'fastify';
import { findActiveJob, recordAppendedPrompt } from '../db/jobs';
import type { Admitted } from './admit';
import { JOB_CLOSING } from '../workflows/definitions';
import { appendPromptUpdate } from '../workflows/human-input';
import type { JobsDeps } from './deps';
import { Unavailable } from '../refusals/refusal';
import { allocate, submitJob } from './submit';
import { temporalCall } from '../temporal/temporal-call';

/** How long a running job has to accept a follow-up before the request gives up (as for resume). */
export const APPEND_DEADLINE_MS = 20_000;

export interface AcceptedPrompt {
  workflow_id: string;
  prompt_id: string;
  job_id: string;
  /** `running_job`: the running job took it into its context; `new_job`: none ran, so a job was started for it. */
  delivered: 'running_job' | 'new_job';
}

/** True when the job could not take the follow-up because it is closing or already closed. */
function jobCannotTake(err: unknown): boolean {
  if (err instanceof WorkflowNotFoundError) return true;
  return (
    err instanceof WorkflowUpdateFailedError &&
    err.cause instanceof ApplicationFailure &&
    err.cause.type === JOB_CLOSING
  );
}

/**
 * A new prompt in a workflow the caller may see (checked by the caller): delivered to the workflow's running job
 * through the `appendPrompt` update, or, when none runs or it is closing, the start of the workflow's next job.
 * `prompt` is already redacted.
 */
export async function appendPrompt(
  deps: JobsDeps,
  principal: Admitted,
  input: { workflowId: string; prompt: string; modelTier?: string },
  log: FastifyBaseLogger,
): Promise<AcceptedPrompt> {
  const { workflowId, prompt } = input;
  const promptId = await allocate(() => deps.ids.nextPromptId());
  const active = await findActiveJob(deps.pool, workflowId);
  if (active) {
    try {
      await recordAppendedPrompt(
        deps.pool,
        { promptId, workflowId, jobId: active.job_id, prompt, createdBy: principal.user_id || 'user' },
        // Accepted is enough: from then on the job holds the prompt in its history.
        async () => {
          // A job may take a while to accept; Temporal itself unreachable is still answered at once.
          await temporalCall(
            deps,
            'the prompt was not delivered',
            () =>
              deps.temporal.workflow.getHandle(active.job_id).startUpdate(appendPromptUpdate, {
                args: [{ prompt_id: promptId, prompt }],
                updateId: promptId,
                waitForStage: WorkflowUpdateStage.ACCEPTED,
              }),
            { waitMs: APPEND_DEADLINE_MS },
          );
        },
      );
      return { workflow_id: workflowId, prompt_id: promptId, job_id: active.job_id, delivered: 'running_job' };
    } catch (err) {
      if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
        throw new Unavailable(
          'job_unresponsive',
          `job ${active.job_id} did not take the prompt within ${APPEND_DEADLINE_MS / 1000} s; retry`,
        );
      }
      if (!jobCannotTake(err)) throw err;
      // The job ran its last level meanwhile: the prompt starts the workflow's next job instead.
    }
  }
  const submitted = await submitJob(deps, principal, { prompt, workflowId, modelTier: input.modelTier, promptId }, log);
  return { ...submitted, delivered: 'new_job' };
}
