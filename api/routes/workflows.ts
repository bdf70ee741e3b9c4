import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  WorkflowUpdateStage,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findActiveJob, listPromptThreads, recordAppendedPrompt } from '../../db/jobs';
import type { TokenOwner } from '../../db/tokens';
import {
  decodeCursor,
  encodeCursor,
  getWorkflow,
  listWorkflows,
  setWorkflowHidden,
  workflowState,
  type WorkflowListRow,
} from '../../db/workflow-list';
import { appendPromptUpdate, JOB_CLOSING } from '../../workflows/human-input';
import type { ApiDeps } from '../deps';
import { AppError, NotFoundError, UnavailableError } from '../errors';
import { canSee, orgScope, principalOf } from '../plugins/principal';
import { redactPrompt } from '../redact';
import { allocate, submitJob } from '../submit';
import { ChatRequestSchema, ErrorSchema } from './chat';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

const WorkflowParams = z.object({ id: z.string().min(1).max(100) });

/** How long a running job has to accept a follow-up before the request gives up (as for resume). */
const APPEND_DEADLINE_MS = 20_000;

const CreateWorkflowBody = ChatRequestSchema.omit({ workflow_id: true });
const AppendPromptBody = ChatRequestSchema.pick({ prompt: true, metadata: true });

const ListQuery = z.object({
  // Out-of-range limits are clamped (the spec's rule) rather than refused; only a non-integer is a client error.
  limit: z
    .string()
    .regex(/^-?[0-9]+$/, 'an integer')
    .transform((value) => Math.min(MAX_LIMIT, Math.max(1, Number(value))))
    .optional(),
  cursor: z.string().optional(),
  project_slug: z.string().min(1).max(64).optional(),
  include_hidden: z.enum(['true', 'false']).optional(),
});

export const WorkflowSchema = z.object({
  workflow_id: z.string(),
  project_slug: z.string().nullable(),
  created_by: z.string(),
  updated_at: z.string(),
  hidden: z.boolean(),
  /** `running`, `queued`, `pending` (waiting for a person, or nothing started), or the latest job's terminal state. */
  status: z.string(),
  latest_job_id: z.string().nullable(),
  scenario: z.string(),
});

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

const WorkflowListSchema = z.object({ workflows: z.array(WorkflowSchema), next_cursor: z.string().nullable() });

const HiddenSchema = z.object({ workflow_id: z.string(), hidden: z.boolean() });

/** A workflow is visible to its org and to admins; to anyone else it does not exist (as for jobs). */
async function visibleWorkflow(deps: ApiDeps, principal: TokenOwner, workflowId: string): Promise<WorkflowListRow> {
  const workflow = await getWorkflow(deps.pool, workflowId);
  if (!workflow || !canSee(principal, workflow.org_id)) {
    throw new NotFoundError(`workflow ${workflowId}`);
  }
  return workflow;
}

function present(row: WorkflowListRow): z.infer<typeof WorkflowSchema> {
  return {
    workflow_id: row.workflow_id,
    project_slug: row.project_slug,
    created_by: row.created_by,
    updated_at: row.updated_at,
    hidden: row.hidden,
    status: workflowState(row.status),
    latest_job_id: row.latest_job_id,
    scenario: row.scenario,
  };
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

export function workflowRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/workflows',
      { schema: { querystring: ListQuery, response: { 200: WorkflowListSchema, 400: ErrorSchema } } },
      async (request) => {
        const principal = principalOf(request);
        const query = request.query;
        const limit = query.limit ?? DEFAULT_LIMIT;
        const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
        if (query.cursor !== undefined && !after) {
          throw new AppError(400, 'invalid_cursor', 'cursor: not a next_cursor issued by this API');
        }
        const rows = await listWorkflows(deps.pool, {
          orgId: orgScope(principal),
          projectSlug: query.project_slug,
          includeHidden: query.include_hidden === 'true',
          limit,
          after,
        });
        const last = rows[rows.length - 1];
        // A full page may be the last one; the client then gets one empty page, which is what the spec's rule implies.
        const nextCursor = rows.length < limit || !last ? null : encodeCursor(last.updated_at, last.workflow_id);
        return { workflows: rows.map(present), next_cursor: nextCursor };
      },
    );

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
        const workflow = await visibleWorkflow(deps, principal, submitted.workflow_id);
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
        const workflow = await visibleWorkflow(deps, principalOf(request), request.params.id);
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
        const workflow = await visibleWorkflow(deps, principal, request.params.id);
        const prompt = redactPrompt(request.body.prompt).text;
        const promptId = await allocate(() => deps.ids.nextPromptId());
        const active = await findActiveJob(deps.pool, workflow.workflow_id);
        if (active) {
          try {
            await recordAppendedPrompt(
              deps.pool,
              {
                promptId,
                workflowId: workflow.workflow_id,
                jobId: active.job_id,
                prompt,
                createdBy: principal.user_id || 'user',
              },
              // Accepted is enough: from then on the job holds the prompt in its history.
              async () => {
                await deps.temporal.withDeadline(Date.now() + APPEND_DEADLINE_MS, () =>
                  deps.temporal.workflow.getHandle(active.job_id).startUpdate(appendPromptUpdate, {
                    args: [{ prompt_id: promptId, prompt }],
                    updateId: promptId,
                    waitForStage: WorkflowUpdateStage.ACCEPTED,
                  }),
                );
              },
            );
            return reply.code(202).send({
              workflow_id: workflow.workflow_id,
              prompt_id: promptId,
              job_id: active.job_id,
              delivered: 'running_job',
            });
          } catch (err) {
            if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) {
              throw new UnavailableError(
                'job_unresponsive',
                `job ${active.job_id} did not take the prompt within ${APPEND_DEADLINE_MS / 1000} s; retry`,
              );
            }
            if (!jobCannotTake(err)) throw err;
            // The job ran its last level meanwhile: the prompt starts the workflow's next job instead.
          }
        }
        const submitted = await submitJob(
          deps,
          principal,
          { prompt, workflowId: workflow.workflow_id, modelTier: request.body.metadata?.model_tier, promptId },
          request.log,
        );
        return reply.code(202).send({ ...submitted, delivered: 'new_job' });
      },
    );

    app.get(
      '/v1/workflows/:id',
      { schema: { params: WorkflowParams, response: { 200: WorkflowSchema, 404: ErrorSchema } } },
      async (request) => present(await visibleWorkflow(deps, principalOf(request), request.params.id)),
    );

    for (const action of ['hide', 'unhide'] as const) {
      app.post(
        `/v1/workflows/:id/${action}`,
        { schema: { params: WorkflowParams, response: { 200: HiddenSchema, 404: ErrorSchema } } },
        async (request) => {
          // Any valid token of the workflow's org (or an admin) may do this: the spec has no admin gate here.
          const workflow = await visibleWorkflow(deps, principalOf(request), request.params.id);
          const hidden = action === 'hide';
          if (!(await setWorkflowHidden(deps.pool, workflow.workflow_id, hidden))) {
            throw new NotFoundError(`workflow ${workflow.workflow_id}`);
          }
          return { workflow_id: workflow.workflow_id, hidden };
        },
      );
    }
  };
}
