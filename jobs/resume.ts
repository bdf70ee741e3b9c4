import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { FastifyBaseLogger } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { findLinkedQuestion, questionAnsweredBy } from '../db/answer-links';
import { isTerminalStatus, type JobRow } from '../db/jobs';
import { Conflict, Invalid, Unavailable } from '../refusals/refusal';
import { INVALID_BUDGET_DECISION, JOB_NOT_PAUSED, UNKNOWN_CALL_ID } from '../workflows/definitions';
import { resumeUpdate } from '../workflows/human-input';
import type { JobsDeps } from './deps';
import { redactPrompt } from './redact';

/**
 * How long the job workflow has to accept or reject an answer. The update waits for a worker to run the job's
 * validator, so with no worker polling it would otherwise hold the request open indefinitely.
 */
export const RESUME_DEADLINE_MS = 20_000;

/** The validator's rejections, by ApplicationFailure type, as 409 codes. */
const REJECTION_CODES: Record<string, string> = {
  [JOB_NOT_PAUSED]: 'job_not_paused',
  [UNKNOWN_CALL_ID]: 'unknown_call_id',
};

/**
 * Answers a paused job's `ask_user` call through the job's resume Update (redacted first). The job's validator
 * refuses a job that is not waiting on `callId` (409); a finished job is 409 `job_finished`; a job that does not
 * take the answer in time is 503 `job_unresponsive`. Returns the answer as the job took it (redacted).
 */
export async function resumeJob(
  deps: JobsDeps,
  job: JobRow,
  answer: { call_id: string; answer: string },
  log: FastifyBaseLogger,
): Promise<string> {
  const finished = () => new Conflict('job_finished', `job ${job.job_id} is already finished`);
  if (isTerminalStatus(job.status)) throw finished();
  const { call_id } = answer;
  const text = redactPrompt(answer.answer).text;
  try {
    await deps.temporal.withDeadline(Date.now() + RESUME_DEADLINE_MS, () =>
      deps.temporal.workflow.getHandle(job.job_id).executeUpdate(resumeUpdate, { args: [{ call_id, answer: text }] }),
    );
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
      const code = err.cause.type ? REJECTION_CODES[err.cause.type] : undefined;
      if (code && (await findLinkedQuestion(deps.pool, job.job_id, call_id))) {
        // The job asked it, so someone was quicker, through another channel (console, chat, CLI, an answer link): who.
        const who = await waitForAnswerer(deps, job.job_id, call_id);
        if (who !== null)
          throw new Conflict(code, `question ${call_id} of job ${job.job_id} was already answered by ${who}`);
      }
      if (code) throw new Conflict(code, err.cause.message);
      // A budget decision answered with none of its answers: the caller's input, not the job's state.
      if (err.cause.type === INVALID_BUDGET_DECISION) throw new Invalid('invalid_budget_decision', err.cause.message);
    }
    if (err instanceof WorkflowNotFoundError) throw finished();
    if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
      log.warn({ err, job_id: job.job_id, call_id }, 'the job did not take the answer in time');
      throw new Unavailable(
        'job_unresponsive',
        `job ${job.job_id} did not take the answer within ${RESUME_DEADLINE_MS / 1000} s; retry`,
      );
    }
    throw err;
  }
  return text;
}

/** How long a losing answer waits for the winner's name to be recorded (the winner records it just after the job took it). */
const WINNER_WAIT_MS = 2_000;

/** Who answered a question (any channel), waiting briefly for a winner that is recording its name; null if none shows. */
export async function waitForAnswerer(
  deps: Pick<JobsDeps, 'pool'>,
  jobId: string,
  callId: string,
): Promise<string | null> {
  const deadline = Date.now() + WINNER_WAIT_MS;
  for (;;) {
    const who = await questionAnsweredBy(deps.pool, jobId, callId);
    if (who !== undefined) return who;
    if (Date.now() >= deadline) return null;
    await sleep(100);
  }
}
