import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TokenOwner } from '../../db/tokens';
import {
  decodeCursor,
  encodeCursor,
  getWorkflow,
  listWorkflows,
  setWorkflowHidden,
  type WorkflowListRow,
} from '../../db/workflow-list';
import type { ApiDeps } from '../deps';
import { AppError, NotFoundError } from '../errors';
import { canSee, orgScope, principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

const WorkflowParams = z.object({ id: z.string().min(1).max(100) });

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
  status: z.string().nullable(),
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
    status: row.status,
  };
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
