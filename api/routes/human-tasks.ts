import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HUMAN_TASK_STATES, listHumanTasks, type HumanTaskRow } from '../../db/human-tasks';
import { completeHumanTaskAs, visibleHumanTask } from '../../jobs/complete-human-task';
import { redactPrompt } from '../../jobs/redact';
import { orgScope } from '../../jobs/visibility';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

const TaskParams = z.object({ id: z.string().min(1).max(100) });

const TaskListQuery = z.strictObject({
  state: z.enum(HUMAN_TASK_STATES).optional(),
  assignee: z.string().min(1).max(200).optional(),
  job_id: z.string().min(1).max(100).optional(),
  project_slug: z.string().min(1).max(64).optional(),
  job_active: z
    .enum(['true', 'false'])
    .optional()
    .describe("`true`: only those of jobs that have not ended (the console's inbox)"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const CompleteBody = z.strictObject({ note: z.string().trim().max(2_000).optional() });

export const HumanTaskSchema = z.object({
  task_id: z.string(),
  job_id: z.string(),
  workflow_id: z.string(),
  role: z.string(),
  title: z.string(),
  detail: z.string(),
  assignee: z.string(),
  due_at: z.string().nullable(),
  state: z.enum(HUMAN_TASK_STATES),
  completed_by: z.string().nullable(),
  completed_at: z.string().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
});

function taskView(row: HumanTaskRow): z.infer<typeof HumanTaskSchema> {
  return {
    task_id: row.task_id,
    job_id: row.job_id,
    workflow_id: row.workflow_id,
    role: row.role,
    title: row.title,
    detail: row.detail,
    assignee: row.assignee,
    due_at: row.due_at ? row.due_at.toISOString() : null,
    state: row.state,
    completed_by: row.completed_by,
    completed_at: row.completed_at ? row.completed_at.toISOString() : null,
    note: row.note,
    created_at: row.created_at.toISOString(),
  };
}

/** `GET /v1/human-tasks`, `GET /v1/human-tasks/:id`, `POST /v1/human-tasks/:id/complete`. */
export function humanTaskRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/human-tasks',
      {
        schema: {
          querystring: TaskListQuery,
          response: { 200: z.object({ tasks: z.array(HumanTaskSchema) }), 400: ErrorSchema },
        },
      },
      async (request) => {
        const { job_active, ...query } = request.query;
        const rows = await listHumanTasks(deps.pool, {
          ...query,
          jobActive: job_active === 'true',
          orgId: orgScope(principalOf(request)),
        });
        return { tasks: rows.map(taskView) };
      },
    );

    app.get(
      '/v1/human-tasks/:id',
      { schema: { params: TaskParams, response: { 200: HumanTaskSchema, 404: ErrorSchema } } },
      async (request) => taskView(await visibleHumanTask(deps, principalOf(request), request.params.id)),
    );

    app.post(
      '/v1/human-tasks/:id/complete',
      {
        schema: {
          params: TaskParams,
          body: CompleteBody,
          response: { 200: HumanTaskSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
        },
      },
      async (request) => {
        // The note reaches the next level's context, so it is redacted like a prompt.
        const note = request.body.note ? redactPrompt(request.body.note).text : undefined;
        const task = await completeHumanTaskAs(deps, principalOf(request), request.params.id, note, request.log);
        return taskView(task);
      },
    );
  };
}
