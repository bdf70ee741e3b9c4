import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { redactPrompt } from '../../jobs/redact';
import type { AdmissionDeps } from '../../jobs/admit';
import { workflowProject } from '../../jobs/submit';
import { admitRequest } from '../admit-request';
import { databaseThreads, type PromptThreads } from '../prompt-threads';
import { databaseWorkflows, type WorkflowDirectory } from '../workflow-directory';
import { ChatRequestSchema, ErrorSchema, OverBudgetErrorSchema } from './chat';
import { present, visibleWorkflow, WorkflowParams, workflowReadRoutes, WorkflowSchema } from './workflows';
import { named } from '../../http/named-plugin';

export const CreateWorkflowBody = ChatRequestSchema.omit({ workflow_id: true });
export const AppendPromptBody = ChatRequestSchema.pick({ prompt: true, metadata: true });

/**
 * `running_job`: the running job took the prompt into its context; `new_job`: none ran, so a job was started for it;
 * `not_run`: Keel runs without a database, where no job runs (and `job_id` is null).
 */
const Delivered = z.enum(['new_job', 'running_job', 'not_run']);

const PromptThreadSchema = z.object({
  prompt_id: z.string(),
  workflow_id: z.string(),
  prompt: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  job_id: z.string().nullable(),
  delivered: Delivered,
});

const PromptAcceptedSchema = z.object({
  workflow_id: z.string(),
  prompt_id: z.string(),
  job_id: z.string().nullable(),
  delivered: Delivered,
});

/**
 * Workflows with a database: the read routes over PostgreSQL (queue-store fallback for a direct lookup) and the
 * prompt routes over PostgreSQL's prompt threads (a new prompt goes to the running job, or starts one).
 */
export function workflowRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  const directory = databaseWorkflows(deps.pool, deps.queue);
  return async (app) => {
    await app.register(named('workflowReadRoutes', workflowReadRoutes(directory)));
    await app.register(named('workflowPromptRoutes', workflowPromptRoutes(directory, databaseThreads(deps), deps)));
  };
}

/**
 * Creating a workflow with its first prompt, and its prompt threads (list, append), over whichever store holds them.
 */
export function workflowPromptRoutes(
  directory: WorkflowDirectory,
  threads: PromptThreads,
  admission: AdmissionDeps,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/workflows',
      {
        schema: {
          body: CreateWorkflowBody,
          response: {
            201: z.object({ workflow: WorkflowSchema, prompt_id: z.string(), job_id: z.string().nullable() }),
            400: ErrorSchema,
            402: OverBudgetErrorSchema,
            404: ErrorSchema,
            429: ErrorSchema,
            503: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const principal = principalOf(request);
        const created = await admitRequest(
          admission,
          request,
          (admitted) =>
            threads.create(
              admitted,
              {
                prompt: redactPrompt(body.prompt).text,
                projectSlug: body.project_slug,
                scenario: body.scenario,
                modelTier: body.metadata?.model_tier,
              },
              request.log,
            ),
          body.project_slug === undefined ? undefined : { orgId: principal.org_id, slug: body.project_slug },
        );
        const workflow = await visibleWorkflow(directory, principal, created.workflow_id);
        return reply
          .code(201)
          .send({ workflow: present(workflow), prompt_id: created.prompt_id, job_id: created.job_id });
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
        return { workflow_id: workflow.workflow_id, prompts: await threads.list(workflow) };
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
            402: OverBudgetErrorSchema,
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
        const accepted = await admitRequest(
          admission,
          request,
          (admitted) =>
            threads.append(admitted, workflow, { prompt, modelTier: request.body.metadata?.model_tier }, request.log),
          workflowProject(workflow),
        );
        return reply.code(202).send(accepted);
      },
    );
    return Promise.resolve();
  };
}
