import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TokenOwner } from '../../db/tokens';
import {
  defaultTitle,
  MAX_TITLE_CHARS,
  WORKFLOW_STATES,
  workflowState,
  type WorkflowListRow,
} from '../../db/workflow-list';
import { Forbidden, NotFound } from '../../refusals/refusal';
import { principalOf } from '../plugins/principal';
import { canSee, creatorScope, orgScope } from '../../jobs/visibility';
import type { WorkflowDirectory } from '../workflow-directory';
import { ErrorSchema } from './chat';
import { NullableFollowUpPolicySchema } from '../../jobs/follow-up-policy';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const MAX_SEARCH_CHARS = 200;

export const WorkflowParams = z.object({ id: z.string().min(1).max(100) });

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
  /** Text to find in titles and prompts: case-insensitive, literal (`%` and `_` are plain characters). */
  q: z
    .string()
    .max(MAX_SEARCH_CHARS, `at most ${MAX_SEARCH_CHARS} characters`)
    .transform((value) => value.trim())
    .optional(),
  /** Comma-separated workflow states, e.g. `running,pending`; a workflow in any of them is listed. */
  status: z
    .string()
    .max(100)
    .transform((value) => value.split(',').map((state) => state.trim()))
    .pipe(z.array(z.enum(WORKFLOW_STATES)).min(1))
    .optional(),
});

const TitleSchema = z
  .string()
  .transform((value) => value.trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be blank (send null to show the first prompt line again)')
      .max(MAX_TITLE_CHARS, `at most ${MAX_TITLE_CHARS} characters`)
      .regex(/^[^\p{Cc}]*$/u, 'must be one line without control characters'),
  )
  .nullable();

/**
 * The fields of a workflow its owner may change, at least one: the title (trimmed, on one line, 1 to MAX_TITLE_CHARS
 * characters; null restores the default) and the follow-up policy (docs/follow-up-policies.md; null clears it). Strict,
 * so a field this route does not change is refused, not ignored.
 */
export const WorkflowPatchBody = z
  .strictObject({
    title: TitleSchema.optional(),
    follow_up_policy: NullableFollowUpPolicySchema.optional(),
  })
  .refine((body) => body.title !== undefined || body.follow_up_policy !== undefined, {
    message: 'name a field to change: title or follow_up_policy',
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
  /** The owner's title, else the first line of the first prompt, else the workflow id. */
  title: z.string(),
  /** False while the title is the first prompt's line (no title was set). */
  title_set: z.boolean(),
  created_at: z.string().nullable(),
  /** When the latest job started and finished running; null until it did. */
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** What all of the workflow's jobs cost so far, in USD. */
  cost_usd: z.number(),
  /** What a prompt does while a job runs (docs/follow-up-policies.md); null: none set (the API amends). */
  follow_up_policy: NullableFollowUpPolicySchema,
});

const WorkflowListSchema = z.object({ workflows: z.array(WorkflowSchema), next_cursor: z.string().nullable() });

const HiddenSchema = z.object({ workflow_id: z.string(), hidden: z.boolean() });

/** A workflow is visible to its org and to admins; to anyone else it does not exist (as for jobs). */
export async function visibleWorkflow(
  directory: WorkflowDirectory,
  principal: TokenOwner,
  workflowId: string,
): Promise<WorkflowListRow> {
  const workflow = await directory.get(workflowId);
  if (!workflow || !canSee(principal, workflow.org_id, workflow.created_by)) {
    throw new NotFound(`workflow ${workflowId}`);
  }
  return workflow;
}

export function present(row: WorkflowListRow): z.infer<typeof WorkflowSchema> {
  return {
    workflow_id: row.workflow_id,
    project_slug: row.project_slug,
    created_by: row.created_by,
    updated_at: row.updated_at,
    hidden: row.hidden,
    status: workflowState(row.status),
    latest_job_id: row.latest_job_id,
    scenario: row.scenario,
    title: row.title ?? defaultTitle(row.first_prompt) ?? row.workflow_id,
    title_set: row.title !== null && row.title !== undefined,
    created_at: row.created_at ?? null,
    started_at: row.started_at ?? null,
    finished_at: row.finished_at ?? null,
    cost_usd: row.cost_usd ?? 0,
    follow_up_policy: row.follow_up_policy ?? null,
  };
}

/** The read side of workflows (list, one, hide / unhide), over whichever directory holds them. */
export function workflowReadRoutes(directory: WorkflowDirectory): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/workflows',
      { schema: { querystring: ListQuery, response: { 200: WorkflowListSchema, 400: ErrorSchema } } },
      async (request) => {
        const query = request.query;
        const principal = principalOf(request);
        const page = await directory.list({
          orgId: orgScope(principal),
          createdBy: creatorScope(principal),
          projectSlug: query.project_slug,
          includeHidden: query.include_hidden === 'true',
          limit: query.limit ?? DEFAULT_LIMIT,
          cursor: query.cursor,
          search: query.q || undefined,
          states: query.status,
        });
        return { workflows: page.rows.map(present), next_cursor: page.nextCursor };
      },
    );

    app.get(
      '/v1/workflows/:id',
      { schema: { params: WorkflowParams, response: { 200: WorkflowSchema, 404: ErrorSchema } } },
      async (request) => present(await visibleWorkflow(directory, principalOf(request), request.params.id)),
    );

    for (const action of ['hide', 'unhide'] as const) {
      app.post(
        `/v1/workflows/:id/${action}`,
        { schema: { params: WorkflowParams, response: { 200: HiddenSchema, 404: ErrorSchema } } },
        async (request) => {
          // Any valid token of the workflow's org (or an admin) may do this: the spec has no admin gate here.
          const workflow = await visibleWorkflow(directory, principalOf(request), request.params.id);
          const hidden = action === 'hide';
          if (!(await directory.setHidden(workflow.workflow_id, hidden))) {
            throw new NotFound(`workflow ${workflow.workflow_id}`);
          }
          return { workflow_id: workflow.workflow_id, hidden };
        },
      );
    }

    app.patch(
      '/v1/workflows/:id',
      {
        schema: {
          params: WorkflowParams,
          body: WorkflowPatchBody,
          response: { 200: WorkflowSchema, 400: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const workflow = await visibleWorkflow(directory, principal, request.params.id);
        // The title and the policy are the owner's word for their run: others of the org may see them, not change them
        // (admins may).
        if (!principal.is_admin && workflow.created_by !== principal.user_id) {
          throw new Forbidden('not_owner', `workflow ${workflow.workflow_id}: only its creator can rename it`);
        }
        const { title, follow_up_policy: policy } = request.body;
        if (title !== undefined && !(await directory.setTitle(workflow.workflow_id, title))) {
          throw new NotFound(`workflow ${workflow.workflow_id}`);
        }
        if (policy !== undefined && !(await directory.setFollowUpPolicy(workflow.workflow_id, policy))) {
          throw new NotFound(`workflow ${workflow.workflow_id}`);
        }
        return present(await visibleWorkflow(directory, principal, workflow.workflow_id));
      },
    );
    return Promise.resolve();
  };
}
