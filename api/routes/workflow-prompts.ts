import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listPromptThreads } from '../../db/jobs';
import { appendPrompt } from '../../jobs/append-prompt';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { redactPrompt } from '../../jobs/redact';
import { submitJob } from '../../jobs/submit';
import { databaseWorkflows } from '../workflow-directory';
import { ChatRequestSchema, ErrorSchema } from './chat';
import { present, visibleWorkflow, WorkflowParams, workflowReadRoutes, WorkflowSchema } from './workflows';

export const CreateWorkflowBody = ChatRequestSchema.omit({ workflow_id: true });
export const AppendPromptBody = ChatRequestSchema.pick({ prompt: true, metadata: true });

const PromptThreadSchema = z.object({
  prompt_id: z.string(),
  workflow_id: z.string(),
  prompt: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  job_id: z.string().nullable(),
  delivered: z.enum(['new_job', 'running_job']),
});

const PromptAcceptedSchema = z.object({
  workflow_id: z.string(),
  prompt_id: z.string(),
  job_id: z.string(),
  /** `running_job`: the running job took it into its context; `new_job`: none ran, so a job was started for it. */
  delivered: z.enum(['new_job', 'running_job']),
});

/**
 * Workflows with a database: the read routes over PostgreSQL (queue-store fallback for a direct lookup), creating a
 * workflow with its first prompt and job, and its prompt threads (a new prompt goes to the running job, or starts one).
 */
export function workflowRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  const directory = databaseWorkflows(deps.pool, deps.queue);
  return async (app) => {
    await app.register(workflowReadRoutes(directory));

    app.post(
      '/v1/workflows',
      {
        schema: {
          body: CreateWorkflowBody,
          response: {
            201: z.object({ workflow: WorkflowSchema, prompt_id: z.string(), job_id: z.string() }),
            400: ErrorSchema,
            404: ErrorSchema,
            429: ErrorSchema,
            503: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const principal = principalOf(request);
        const submitted = await submitJob(
          deps,
          principal,
          {
            prompt: redactPrompt(body.prompt).text,
            projectSlug: body.project_slug,
            scenario: body.scenario,
            modelTier: body.metadata?.model_tier,
          },
          request.log,
        );
        const workflow = await visibleWorkflow(directory, principal, submitted.workflow_id);
        return reply
          .code(201)
          .send({ workflow: present(workflow), prompt_id: submitted.prompt_id, job_id: submitted.job_id });
      },
    );

    app.get(
      '/v1/workflows/:id/prompts',
      {
        schema: {
          params: WorkflowParams,
          response: {
            200: z.object({ workflow_id: z.string(), prompts: z.array(PromptThreadSchema) }),
            404: ErrorSchema,
          },
        },
      },
      async (request) => {
        const workflow = await visibleWorkflow(directory, principalOf(request), request.params.id);
        const prompts = await listPromptThreads(deps.pool, workflow.workflow_id);
        return {
          workflow_id: workflow.workflow_id,
          prompts: prompts.map((p) => ({ ...p, created_at: p.created_at.toISOString() })),
        };
      },
    );

    app.post(
      '/v1/workflows/:id/prompts',
      {
        schema: {
          params: WorkflowParams,
          body: AppendPromptBody,
          response: {
            202: PromptAcceptedSchema,
            400: ErrorSchema,
            404: ErrorSchema,
            429: ErrorSchema,
            503: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const workflow = await visibleWorkflow(directory, principal, request.params.id);
        const prompt = redactPrompt(request.body.prompt).text;
        const accepted = await appendPrompt(
          deps,
          principal,
          { workflowId: workflow.workflow_id, prompt, modelTier: request.body.metadata?.model_tier },
          request.log,
        );
        return reply.code(202).send(accepted);
      },
    );
  };
}
