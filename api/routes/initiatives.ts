import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listInitiatives } from '../../db/initiatives';
import { CURSOR_TIME, pageOf } from '../../db/keyset';
import { createInitiative, visibleInitiative, withProgress, type InitiativeView } from '../../jobs/initiatives';
import { orgScope } from '../../jobs/visibility';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';
import { cursorParts, DEFAULT_LIMIT, pageQuery } from './list-query';

const INITIATIVE_ID = /^in-[0-9a-f-]{36}$/;

const InitiativeSchema = z.object({
  initiative_id: z.string(),
  org_id: z.string(),
  title: z.string(),
  goal: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
  progress: z.object({
    workflows: z.number(),
    work_items: z.number(),
    work_items_done: z.number(),
    jobs: z.number(),
    jobs_by_status: z.record(z.string(), z.number()),
    jobs_finished_ratio: z.number(),
    cost_usd: z.number(),
  }),
});

const view = (row: InitiativeView): z.infer<typeof InitiativeSchema> => row;

/** Initiatives: work items and workflows toward a goal, with progress from their jobs (docs/work-items.md). */
export function initiativeRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/initiatives',
      {
        schema: {
          body: z.strictObject({
            title: z.string().trim().min(1).max(300),
            goal: z.string().trim().min(1).max(4000).optional(),
            workflow_ids: z
              .array(z.string().regex(/^wf-[0-9]+$/, 'a workflow id such as wf-12'))
              .max(100)
              .default([]),
          }),
          response: { 201: InitiativeSchema, 400: ErrorSchema, 404: ErrorSchema },
        },
      },
      async (request, reply) =>
        reply.code(201).send(view(await createInitiative(deps, principalOf(request), request.body))),
    );

    app.get(
      '/v1/initiatives',
      {
        schema: {
          querystring: z.strictObject(pageQuery),
          response: {
            200: z.object({ initiatives: z.array(InitiativeSchema), next_cursor: z.string().nullable() }),
            400: ErrorSchema,
          },
        },
      },
      async (request) => {
        const after = cursorParts(request.query.cursor, [CURSOR_TIME, INITIATIVE_ID]) as [string, string] | undefined;
        const limit = request.query.limit ?? DEFAULT_LIMIT;
        const rows = await listInitiatives(deps.pool, { orgId: orgScope(principalOf(request)), limit, after });
        const page = pageOf(rows, limit, (row) => [row.created_at, row.initiative_id]);
        return { initiatives: (await withProgress(deps, page.rows)).map(view), next_cursor: page.next_cursor };
      },
    );

    app.get(
      '/v1/initiatives/:id',
      {
        schema: {
          params: z.object({ id: z.string().min(1).max(100) }),
          response: { 200: InitiativeSchema, 404: ErrorSchema },
        },
      },
      async (request) => view(await visibleInitiative(deps, principalOf(request), request.params.id)),
    );
  };
}
