import crypto from 'node:crypto';
import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  WorkflowUpdateStage,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { FastifyBaseLogger } from 'fastify';
import { workflowFollowUpPolicy } from '../db/follow-up';
import { findActiveJob, recordAppendedPrompt } from '../db/jobs';
import { DEFAULT_FOLLOW_UP_POLICY, type FollowUpPolicy } from '../pure/follow-up-policy';
import type { Admitted } from './admit';
import { followUpSignal, JOB_CLOSING, type FollowUpDecision } from '../workflows/definitions';
import { appendPromptUpdate } from '../workflows/human-input';
import type { JobsDeps } from './deps';
import { withFollowUpLease } from './follow-up-lease';
import { Refusal, Unavailable } from '../refusals/refusal';
import { allocate, submitJob } from './submit';
import { temporalCall } from '../temporal/temporal-call';

/** How long a running job has to accept a follow-up before the request gives up (as for resume). */
export const APPEND_DEADLINE_MS = 20_000;

export interface AcceptedPrompt {
  workflow_id: string;
  prompt_id: string;
  job_id: string;
  /** `running_job`: the running job took it into its context; `new_job`: a job was started for it. */
  delivered: 'running_job' | 'new_job';
  /** The follow-up policy that decided (docs/follow-up-policies.md). */
  policy: FollowUpPolicy;
  /** A job started for it that first waits for this one to end (enqueue), or to stop (interrupt); else null. */
  after_job_id: string | null;
}

/** 409 `job_running`: the workflow's `reject` policy refused the prompt; `job_id` names the job that has not ended. */
export class JobRunning extends Refusal {
  override name = 'JobRunning';
  constructor(readonly jobId: string) {
    super(
      'conflict',
      'job_running',
      `job ${jobId} of this workflow has not finished; the workflow rejects follow-ups`,
      undefined,
      {
        job_id: jobId,
      },
    );
  }
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

interface Decision {
  deps: JobsDeps;
  principal: Admitted;
  workflowId: string;
  prompt: string;
  promptId: string;
  modelTier?: string;
  policy: FollowUpPolicy;
  log: FastifyBaseLogger;
}

/**
 * A new prompt in a workflow the caller may see (checked by the caller), decided by the follow-up policy (the
 * request's `followUp`, else the workflow's, else `amend`) against the workflow's newest unfinished job:
 * - none: a job is started for it, whatever the policy;
 * - `amend`: delivered to that job through the `appendPrompt` update (a job closing meanwhile: a new job);
 * - `enqueue`: a job is started that waits, `queued`, until that job has ended;
 * - `interrupt`: a job is started that waits for that job to stop at its next level boundary (it is signalled to) and
 *   carries its workspace; a job that has not started running yet (itself queued) has nothing to interrupt, so the
 *   prompt joins it as with `amend`;
 * - `reject`: 409 `job_running` naming that job.
 * Decisions are taken one at a time per workflow (jobs/follow-up-lease.ts), so racing prompts see each other's jobs.
 * `prompt` is already redacted.
 */
export async function appendPrompt(
  deps: JobsDeps,
  principal: Admitted,
  input: { workflowId: string; prompt: string; modelTier?: string; followUp?: FollowUpPolicy },
  log: FastifyBaseLogger,
): Promise<AcceptedPrompt> {
  const { workflowId } = input;
  return withFollowUpLease(deps.pool, workflowId, async () => {
    const policy = input.followUp ?? (await workflowFollowUpPolicy(deps.pool, workflowId)) ?? DEFAULT_FOLLOW_UP_POLICY;
    const decision: Decision = { deps, principal, workflowId, prompt: input.prompt, promptId: '', policy, log };
    const active = await findActiveJob(deps.pool, workflowId);
    if (active && policy === 'reject') {
      await tellJob(decision, active.job_id, { policy: 'reject' });
      throw new JobRunning(active.job_id);
    }
    decision.promptId = await allocate(() => deps.ids.nextPromptId());
    decision.modelTier = input.modelTier;
    if (!active) return startFor(decision);
    if (policy === 'enqueue') return startFor(decision, { jobId: active.job_id, carryWorkspace: false });
    if (policy === 'interrupt' && active.status !== 'queued') {
      const next = `job-${crypto.randomUUID()}`;
      // Started first, so a job is never stopped for a successor that failed to start; it waits for the stop.
      const started = await startFor(decision, { jobId: active.job_id, carryWorkspace: true }, next);
      await tellJob(decision, active.job_id, { policy: 'interrupt', prompt_id: decision.promptId, next_job_id: next });
      return started;
    }
    return (await deliver(decision, active.job_id)) ?? startFor(decision);
  });
}

/** Starts the job for the prompt, after `after` when it follows one. */
async function startFor(
  d: Decision,
  after?: { jobId: string; carryWorkspace: boolean },
  jobId?: string,
): Promise<AcceptedPrompt> {
  const submitted = await submitJob(
    d.deps,
    d.principal,
    {
      prompt: d.prompt,
      workflowId: d.workflowId,
      modelTier: d.modelTier,
      promptId: d.promptId,
      jobId,
      followUp: { policy: d.policy, promptId: d.promptId, ...(after ? { after } : {}) },
    },
    d.log,
  );
  return { ...submitted, delivered: 'new_job', policy: d.policy, after_job_id: after?.jobId ?? null };
}

/** Delivers the prompt to the running job; undefined when it is closing or closed (the caller starts a new job). */
async function deliver(d: Decision, jobId: string): Promise<AcceptedPrompt | undefined> {
  const { deps, promptId, prompt } = d;
  try {
    await recordAppendedPrompt(
      deps.pool,
      { promptId, workflowId: d.workflowId, jobId, prompt, createdBy: d.principal.user_id || 'user' },
      // Accepted is enough: from then on the job holds the prompt in its history.
      async () => {
        // A job may take a while to accept; Temporal itself unreachable is still answered at once.
        await temporalCall(
          deps,
          'the prompt was not delivered',
          () =>
            deps.temporal.workflow.getHandle(jobId).startUpdate(appendPromptUpdate, {
              args: [{ prompt_id: promptId, prompt, policy: d.policy }],
              updateId: promptId,
              waitForStage: WorkflowUpdateStage.ACCEPTED,
            }),
          { waitMs: APPEND_DEADLINE_MS },
        );
      },
    );
    return {
      workflow_id: d.workflowId,
      prompt_id: promptId,
      job_id: jobId,
      delivered: 'running_job',
      policy: d.policy,
      after_job_id: null,
    };
  } catch (err) {
    if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
      throw new Unavailable(
        'job_unresponsive',
        `job ${jobId} did not take the prompt within ${APPEND_DEADLINE_MS / 1000} s; retry`,
      );
    }
    if (!jobCannotTake(err)) throw err;
    // The job ran its last level meanwhile: the prompt starts the workflow's next job instead.
    return undefined;
  }
}

/**
 * Tells the job what the policy decided about it (the `followUp` signal: an interrupt stops it at its next level
 * boundary; a rejection is recorded on its stream). Never fails the request: a job that has ended meanwhile needs
 * telling nothing, and an interrupt that could not be delivered leaves its successor waiting for the job's own end, as
 * an enqueued one would (logged).
 */
async function tellJob(d: Decision, jobId: string, decision: FollowUpDecision): Promise<void> {
  try {
    await temporalCall(d.deps, `the ${decision.policy} was not delivered`, () =>
      d.deps.temporal.workflow.getHandle(jobId).signal(followUpSignal, decision),
    );
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return;
    d.log.warn({ err, job_id: jobId, policy: decision.policy }, 'could not tell the job about the follow-up');
  }
}
