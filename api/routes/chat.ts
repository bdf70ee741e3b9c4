import crypto from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdAllocationError } from '../../db/ids';
import { findWorkflow, recordSubmission } from '../../db/jobs';
import { getProject } from '../../db/projects';
import {
  KEEL_CREATED_BY,
  KEEL_MODEL_TIER,
  KEEL_PROJECT,
  KEEL_STATUS,
  KEEL_WORKFLOW_ID,
} from '../../temporal/search-attributes';
import type { runJob } from '../../workflows/job';
import type { ApiDeps } from '../deps';
import { AppError, NotFoundError, UnavailableError } from '../errors';
import { canSee, principalOf } from '../plugins/principal';
import { redactPrompt } from '../redact';

export const MAX_PROMPT_CHARS = 32_000;

export const ChatRequestSchema = z.strictObject({
  prompt: z.string().trim().min(1, 'prompt must not be empty').max(MAX_PROMPT_CHARS),
  project_slug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single dashes')
    .max(64)
    .optional(),
  workflow_id: z
    .string()
    .regex(/^wf-[0-9]+$/, 'a workflow id such as wf-12')
    .optional(),
  metadata: z.looseObject({ model_tier: z.enum(['free', 'cheap', 'frontier']).optional() }).optional(),
  /** The scenario to run first (a file in scenarios/); `build` by default. */
  scenario: z
    .string()
    .regex(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, 'a scenario name such as build')
    .optional(),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

export const ChatAcceptedSchema = z.object({
  job_id: z.string(),
  workflow_id: z.string(),
  prompt_id: z.string(),
  status: z.literal('queued'),
});

export const ErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export function chatRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/chat',
      {
        schema: {
          body: ChatRequestSchema,
          response: { 202: ChatAcceptedSchema, 400: ErrorSchema, 401: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const body = request.body;
        const prompt = redactPrompt(body.prompt).text;

        let workflowId = body.workflow_id;
        let projectSlug = body.project_slug;
        if (projectSlug) {
          const project = await getProject(deps.pool, projectSlug);
          // A project of another org is invisible; naming an unknown one creates it for the caller's org.
          if (project && !canSee(principal, project.org_id)) {
            throw new NotFoundError(`project ${projectSlug}`);
          }
        }
        if (workflowId) {
          const workflow = await findWorkflow(deps.pool, workflowId);
          if (!workflow || !canSee(principal, workflow.org_id)) {
            throw new NotFoundError(`workflow ${workflowId}`);
          }
          projectSlug = projectSlug ?? workflow.project_slug ?? undefined;
        }

        let promptId: string;
        try {
          [workflowId, promptId] = await Promise.all([
            workflowId ?? deps.ids.nextWorkflowId(),
            deps.ids.nextPromptId(),
          ]);
        } catch (err) {
          if (err instanceof IdAllocationError) throw new UnavailableError('id_allocation_failed', err.message);
          throw err;
        }
        const jobId = `job-${crypto.randomUUID()}`;
        const modelTier = body.metadata?.model_tier;
        const ids = { job_id: jobId, workflow_id: workflowId, prompt_id: promptId };

        await recordSubmission(
          deps.pool,
          {
            jobId,
            workflowId,
            newWorkflow: !body.workflow_id,
            promptId,
            prompt,
            projectSlug,
            modelTier,
            createdBy: principal.user_id || 'user',
            orgId: principal.org_id,
            taskQueue: deps.taskQueue,
          },
          // Starting the workflow is the durable enqueue; it happens before the rows commit.
          async () => {
            try {
              await deps.temporal.workflow.start<typeof runJob>('runJob', {
                workflowId: jobId,
                taskQueue: deps.taskQueue,
                args: [
                  {
                    ids,
                    prompt,
                    projectSlug,
                    modelTier,
                    createdBy: principal.user_id,
                    scenario: body.scenario,
                    budgetUsd: deps.jobBudgetUsd,
                    heartbeatEveryMs: deps.levelHeartbeatMs,
                  },
                ],
                memo: { prompt_preview: prompt.slice(0, 200) },
                typedSearchAttributes: [
                  { key: KEEL_WORKFLOW_ID, value: workflowId },
                  { key: KEEL_CREATED_BY, value: principal.user_id },
                  { key: KEEL_STATUS, value: 'queued' },
                  ...(projectSlug ? [{ key: KEEL_PROJECT, value: projectSlug }] : []),
                  ...(modelTier ? [{ key: KEEL_MODEL_TIER, value: modelTier }] : []),
                ],
              });
            } catch (err) {
              request.log.error({ err }, 'could not start the job workflow');
              throw new UnavailableError('queue_unavailable', 'the job queue (Temporal) did not accept the job; retry');
            }
          },
        ).catch((err: unknown) => {
          if (err instanceof AppError) throw err;
          request.log.error({ err }, 'could not record the submission');
          throw new UnavailableError('database_unavailable', 'the submission could not be stored; retry');
        });

        return reply.code(202).send({ job_id: jobId, workflow_id: workflowId, prompt_id: promptId, status: 'queued' });
      },
    );
  };
}
