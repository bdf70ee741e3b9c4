import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isTerminalStatus } from '../../db/jobs';
import { JOB_NOT_PAUSED, resumeUpdate, UNKNOWN_CALL_ID } from '../../workflows/human-input';
import type { ApiDeps } from '../deps';
import { ConflictError, UnavailableError } from '../errors';
import { principalOf } from '../plugins/principal';
import { redactPrompt } from '../redact';
import { ErrorSchema } from './chat';
import { visibleJob } from './jobs';

export const MAX_ANSWER_CHARS = 10_000;

/**
 * How long the job workflow has to accept or reject an answer. The update waits for a worker to run the job's
 * validator, so with no worker polling it would otherwise hold the request open indefinitely.
 */
const RESUME_DEADLINE_MS = 20_000;

const ResumeParams = z.object({ id: z.string().min(1).max(100) });

const ResumeBody = z.strictObject({
  call_id: z.string().min(1).max(200),
  answer: z.string().trim().min(1, 'answer must not be empty').max(MAX_ANSWER_CHARS),
});

/** The validator's rejections, by ApplicationFailure type, as the API's 409 codes. */
const REJECTION_CODES: Record<string, string> = {
  [JOB_NOT_PAUSED]: 'job_not_paused',
  [UNKNOWN_CALL_ID]: 'unknown_call_id',
};

export function resumeRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/jobs/:id/resume',
      {
        schema: {
          params: ResumeParams,
          body: ResumeBody,
          response: {
            200: z.object({ job_id: z.string(), call_id: z.string(), status: z.literal('resumed') }),
            400: ErrorSchema,
            404: ErrorSchema,
            409: ErrorSchema,
            503: ErrorSchema,
          },
        },
      },
      async (request) => {
        const job = await visibleJob(deps, principalOf(request), request.params.id);
        const finished = () => new ConflictError('job_finished', `job ${job.job_id} is already finished`);
        if (isTerminalStatus(job.status)) throw finished();
        const { call_id } = request.body;
        // The answer goes into the model's context, so it gets the same redaction as a prompt.
        const answer = redactPrompt(request.body.answer).text;

        try {
          await deps.temporal.withDeadline(Date.now() + RESUME_DEADLINE_MS, () =>
            deps.temporal.workflow.getHandle(job.job_id).executeUpdate(resumeUpdate, { args: [{ call_id, answer }] }),
          );
        } catch (err) {
          if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
            const code = err.cause.type ? REJECTION_CODES[err.cause.type] : undefined;
            if (code) throw new ConflictError(code, err.cause.message);
          }
          // The workflow closed before the row caught up with it.
          if (err instanceof WorkflowNotFoundError) throw finished();
          if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
            request.log.warn({ err, job_id: job.job_id, call_id }, 'the job did not take the answer in time');
            throw new UnavailableError(
              'job_unresponsive',
              `job ${job.job_id} did not take the answer within ${RESUME_DEADLINE_MS / 1000} s; retry`,
            );
          }
          throw err;
        }
        return { job_id: job.job_id, call_id, status: 'resumed' as const };
      },
    );
  };
}
