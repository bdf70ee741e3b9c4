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
import { FollowUpPolicySchema, NullableFollowUpPolicySchema } from '../../jobs/follow-up-policy';

/** `follow_up_policy`: the workflow's own follow-up policy (docs/follow-up-policies.md); none when absent. */
export const CreateWorkflowBody = ChatRequestSchema.omit({ workflow_id: true }).extend({
  follow_up_policy: FollowUpPolicySchema.optional(),
});
/** `follow_up`: this prompt's follow-up policy, over the workflow's (docs/follow-up-policies.md). */
export const AppendPromptBody = ChatRequestSchema.pick({ prompt: true, metadata: true }).extend({
  follow_up: FollowUpPolicySchema.optional(),
});

/** 409 `job_running`: the `reject` policy refused the prompt while `job_id` has not finished. */
const JobRunningErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), job_id: z.string().optional() }),
});

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
  /** The follow-up policy that decided; null without a database (`not_run`). */
  policy: NullableFollowUpPolicySchema,
  /** The job that `job_id` waits for before it runs: the one it was enqueued behind, or the one it interrupts. */
  after_job_id: z.string().nullable(),
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
                followUpPolicy: body.follow_up_policy,
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
            409: JobRunningErrorSchema,
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
            threads.append(
              admitted,
              workflow,
              { prompt, modelTier: request.body.metadata?.model_tier, followUp: request.body.follow_up },
              request.log,
            ),
          workflowProject(workflow),
        );
        return reply.code(202).send(accepted);
      },
    );
    return Promise.resolve();
  };
}
