import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { IdAllocator } from '../../db/ids';
import type { QueueStore } from '../../queue/queue-store';
import { principalOf } from '../plugins/principal';
import { redactPrompt } from '../../jobs/redact';
import { allocate } from '../../jobs/submit';
import type { queueWorkflows } from '../workflow-directory';
import { ErrorSchema } from './chat';
import { AppendPromptBody, CreateWorkflowBody } from './workflow-prompts';
import { present, visibleWorkflow, WorkflowParams, WorkflowSchema } from './workflows';

const PROMPTS = 'prompts';

/** A prompt thread as the queue store keeps it; no job runs without a database, so none is linked. */
const promptRecord = z.object({
  prompt_id: z.string(),
  workflow_id: z.string(),
  prompt: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  job_id: z.null(),
  delivered: z.literal('not_run'),
});
type PromptRecord = z.infer<typeof promptRecord>;

/** Now as RFC 3339 with microseconds, the form the list orders by (and the database writes). */
const nowMicros = () => new Date().toISOString().replace('Z', '000Z');

/**
 * Creating workflows and their prompt threads when Keel runs without a database: the records live in the queue store
 * and the list works, but no job runs (workers need the database), so `job_id` is null and `delivered` is `not_run`.
 */
export function workflowWritesWithoutDatabase(deps: {
  queue: QueueStore;
  ids: IdAllocator;
  workflows: ReturnType<typeof queueWorkflows>;
}): FastifyPluginAsyncZod {
  const putPrompt = (prompt: PromptRecord) => deps.queue.putRecord(PROMPTS, prompt.prompt_id, JSON.stringify(prompt));
  return async (app) => {
    app.post(
      '/v1/workflows',
      {
        schema: {
          body: CreateWorkflowBody,
          response: {
            201: z.object({ workflow: WorkflowSchema, prompt_id: z.string(), job_id: z.null() }),
            400: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const [workflowId, promptId] = await allocate(() =>
          Promise.all([deps.ids.nextWorkflowId(), deps.ids.nextPromptId()]),
        );
        const createdBy = principal.user_id || 'user';
        const at = nowMicros();
        const workflow = {
          workflow_id: workflowId,
          project_slug: request.body.project_slug ?? null,
          created_by: createdBy,
          org_id: principal.org_id,
          hidden: false,
          scenario: request.body.scenario ?? 'build',
          updated_at: at,
          latest_job_id: null,
          status: null,
        };
        const prompt = redactPrompt(request.body.prompt).text;
        await putPrompt({
          prompt_id: promptId,
          workflow_id: workflowId,
          prompt,
          created_by: createdBy,
          created_at: at,
          job_id: null,
          delivered: 'not_run',
        });
        await deps.workflows.put(workflow);
        return reply.code(201).send({ workflow: present(workflow), prompt_id: promptId, job_id: null });
      },
    );

    app.get(
      '/v1/workflows/:id/prompts',
      {
        schema: {
          params: WorkflowParams,
          response: {
            200: z.object({ workflow_id: z.string(), prompts: z.array(promptRecord) }),
            404: ErrorSchema,
          },
        },
      },
      async (request) => {
        const workflow = await visibleWorkflow(deps.workflows, principalOf(request), request.params.id);
        const prompts = (await deps.queue.listRecords(PROMPTS))
          .map((stored) => promptRecord.parse(JSON.parse(stored)))
          .filter((p) => p.workflow_id === workflow.workflow_id)
          .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.prompt_id.localeCompare(b.prompt_id));
        return { workflow_id: workflow.workflow_id, prompts };
      },
    );

    app.post(
      '/v1/workflows/:id/prompts',
      {
        schema: {
          params: WorkflowParams,
          body: AppendPromptBody,
          response: {
            202: z.object({
              workflow_id: z.string(),
              prompt_id: z.string(),
              job_id: z.null(),
              delivered: z.literal('not_run'),
            }),
            400: ErrorSchema,
            404: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const workflow = await visibleWorkflow(deps.workflows, principal, request.params.id);
        const promptId = await allocate(() => deps.ids.nextPromptId());
        const at = nowMicros();
        await putPrompt({
          prompt_id: promptId,
          workflow_id: workflow.workflow_id,
          prompt: redactPrompt(request.body.prompt).text,
          created_by: principal.user_id || 'user',
          created_at: at,
          job_id: null,
          delivered: 'not_run',
        });
        await deps.workflows.put({ ...workflow, updated_at: at });
        return reply.code(202).send({
          workflow_id: workflow.workflow_id,
          prompt_id: promptId,
          job_id: null,
          delivered: 'not_run' as const,
        });
      },
    );
    return Promise.resolve();
  };
}
