import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { resumeJob } from '../../jobs/resume';
import { recordAnswer } from '../../db/questions';
import { ErrorSchema } from './chat';
import { visibleJob } from '../../jobs/visibility';
import { refreshUserBudget } from '../../jobs/admit';

export const MAX_ANSWER_CHARS = 10_000;

const ResumeParams = z.object({ id: z.string().min(1).max(100) });

const ResumeBody = z.strictObject({
  call_id: z.string().min(1).max(200),
  answer: z.string().trim().min(1, 'answer must not be empty').max(MAX_ANSWER_CHARS),
});

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
        const principal = principalOf(request);
        const job = await visibleJob(deps, principal, request.params.id);
        // A `retry` of a job paused on its submitter's monthly budget reads that budget again (docs/budgets.md).
        await refreshUserBudget(deps, job.created_by, request.log);
        const taken = await resumeJob(deps, job, request.body, request.log);
        const { call_id } = request.body;
        // Who answered is what the job's events cannot say; the console shows it beside the answer.
        await recordAnswer(deps.pool, {
          jobId: job.job_id,
          callId: call_id,
          answer: taken,
          answeredBy: principal.user_id,
        });
        return { job_id: job.job_id, call_id, status: 'resumed' as const };
      },
    );
  };
}
