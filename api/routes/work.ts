import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WORK_TYPES } from '../../capabilities/work-types';
import { CURSOR_TIME, pageOf } from '../../db/keyset';
import { listWorkItems, type WorkItemRow } from '../../db/work-items';
import { admitRequest } from '../admit-request';
import { createWorkItem, currentPlan, replanWorkItem, startWorkItem, visibleWorkItem } from '../../jobs/work-items';
import { orgScope } from '../../jobs/visibility';
import { workflowProject } from '../../jobs/submit';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';
import { cursorParts, DEFAULT_LIMIT, Json, pageQuery, SLUG } from './list-query';

const NAME = /^[a-z][a-z0-9-]{0,63}$/;
const SLUG_PART = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ORG = /^[^|]{1,200}$/;

const WorkTypeSchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  scenario: z.string(),
  capabilities: z.array(z.string()),
  steps: z.array(z.object({ level: z.string(), title: z.string() })),
});

const WorkItemSchema = z.object({
  slug: z.string(),
  org_id: z.string(),
  type: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  project_slug: z.string().nullable(),
  initiative_id: z.string().nullable(),
  state: z.string(),
  plan_version: z.number(),
  workflow_id: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

const PlanSchema = z.object({ slug: z.string(), plan_version: z.number(), plan: Json });

const SlugParams = z.object({ slug: SLUG });
/** Admins may address another org's work item. */
const OrgQuery = z.strictObject({ org_id: z.string().min(1).max(200).optional() });

function view(row: WorkItemRow): z.infer<typeof WorkItemSchema> {
  return {
    slug: row.slug,
    org_id: row.org_id,
    type: row.work_type,
    title: row.title,
    description: row.description,
    project_slug: row.project_slug,
    initiative_id: row.initiative_id,
    state: row.state,
    plan_version: row.plan_version,
    workflow_id: row.workflow_id,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Work types and work items with their plans (docs/work-items.md). */
export function workRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/work-types',
      {
        schema: {
          querystring: z.strictObject(pageQuery),
          response: {
            200: z.object({ work_types: z.array(WorkTypeSchema), next_cursor: z.string().nullable() }),
            400: ErrorSchema,
          },
        },
      },
      async (request) => {
        const after = cursorParts(request.query.cursor, [NAME])?.[0];
        const limit = request.query.limit ?? DEFAULT_LIMIT;
        const rows = [...WORK_TYPES]
          .sort((a, b) => (a.name < b.name ? -1 : 1))
          .filter((type) => after === undefined || type.name > after)
          .slice(0, limit)
          .map((type) => ({ ...type, steps: type.steps.map((s) => ({ level: s.level, title: s.title })) }));
        const page = pageOf(rows, limit, (row) => [row.name]);
        return { work_types: page.rows, next_cursor: page.next_cursor };
      },
    );

    app.post(
      '/v1/work-items',
      {
        schema: {
          body: z.strictObject({
            slug: SLUG,
            type: z.string().min(1).max(64),
            title: z.string().trim().min(1).max(300),
            description: z.string().trim().min(1).max(8000).optional(),
            project_slug: SLUG.optional(),
            initiative_id: z.string().min(1).max(100).optional(),
          }),
          response: { 201: WorkItemSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
        },
      },
      async (request, reply) => {
        const created = await createWorkItem(deps, principalOf(request), request.body);
        return reply.code(201).send(view(created));
      },
    );

    app.get(
      '/v1/work-items',
      {
        schema: {
          querystring: z.strictObject({
            ...pageQuery,
            project_slug: SLUG.optional(),
            initiative_id: z.string().min(1).max(100).optional(),
            state: z.enum(['open', 'planned', 'in_progress', 'done', 'failed']).optional(),
          }),
          response: {
            200: z.object({ work_items: z.array(WorkItemSchema), next_cursor: z.string().nullable() }),
            400: ErrorSchema,
          },
        },
      },
      async (request) => {
        const after = cursorParts(request.query.cursor, [CURSOR_TIME, SLUG_PART, ORG]) as
          [string, string, string] | undefined;
        const limit = request.query.limit ?? DEFAULT_LIMIT;
        const rows = await listWorkItems(deps.pool, {
          orgId: orgScope(principalOf(request)),
          projectSlug: request.query.project_slug,
          initiativeId: request.query.initiative_id,
          state: request.query.state,
          limit,
          after,
        });
        const page = pageOf(rows, limit, (row) => [row.created_at, row.slug, row.org_id]);
        return { work_items: page.rows.map(view), next_cursor: page.next_cursor };
      },
    );

    app.get(
      '/v1/work-items/:slug',
      {
        schema: {
          params: SlugParams,
          querystring: OrgQuery,
          response: { 200: WorkItemSchema, 400: ErrorSchema, 404: ErrorSchema },
        },
      },
      async (request) =>
        view(await visibleWorkItem(deps, principalOf(request), request.params.slug, request.query.org_id)),
    );

    app.get(
      '/v1/work-items/:slug/plan',
      {
        schema: {
          params: SlugParams,
          querystring: OrgQuery,
          response: { 200: PlanSchema, 400: ErrorSchema, 404: ErrorSchema },
        },
      },
      async (request) => {
        const item = await visibleWorkItem(deps, principalOf(request), request.params.slug, request.query.org_id);
        return { slug: item.slug, plan_version: item.plan_version, plan: await currentPlan(deps, item) };
      },
    );

    app.post(
      '/v1/work-items/:slug/replan',
      {
        schema: {
          params: SlugParams,
          querystring: OrgQuery,
          body: z.strictObject({
            reason: z.string().trim().min(1).max(2000),
            version: z.number().int().min(1).optional(),
          }),
          response: { 200: PlanSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
        },
      },
      async (request) => {
        const item = await visibleWorkItem(deps, principalOf(request), request.params.slug, request.query.org_id);
        const plan = await replanWorkItem(deps, item, request.body);
        return { slug: item.slug, plan_version: plan.version, plan };
      },
    );

    app.post(
      '/v1/work-items/:slug/start',
      {
        schema: {
          params: SlugParams,
          querystring: OrgQuery,
          body: z.strictObject({ model_tier: z.enum(['free', 'cheap', 'frontier']).optional() }).nullish(),
          response: {
            202: z.object({
              slug: z.string(),
              job_id: z.string(),
              workflow_id: z.string(),
              prompt_id: z.string(),
              status: z.literal('queued'),
            }),
            400: ErrorSchema,
            404: ErrorSchema,
            409: ErrorSchema,
            503: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const item = await visibleWorkItem(deps, principal, request.params.slug, request.query.org_id);
        const ids = await admitRequest(
          deps,
          request,
          (admitted) => startWorkItem(deps, admitted, item, request.body ?? {}, request.log),
          workflowProject(item),
        );
        return reply.code(202).send({ slug: item.slug, ...ids, status: 'queued' as const });
      },
    );
  };
}
