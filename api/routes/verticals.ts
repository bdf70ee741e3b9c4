import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CURSOR_TIME, pageOf } from '../../db/keyset';
import { getVertical, listVerticals, type VerticalRow } from '../../db/verticals';
import { NotFound } from '../../refusals/refusal';
import { admitRequest } from '../admit-request';
import { startVerticalDiscovery } from '../../jobs/verticals';
import { canSee, orgScope } from '../../jobs/visibility';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';
import { cursorParts, DEFAULT_LIMIT, Json, pageQuery } from './list-query';

const VERTICAL_ID = /^vt-[0-9a-f-]{36}$/;

const VerticalSchema = z.object({
  vertical_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(['discovering', 'awaiting_confirmation', 'planned', 'rejected', 'failed']),
  job_id: z.string(),
  plan: Json,
  answer: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

const view = (row: VerticalRow) => ({ ...row, status: row.status as z.infer<typeof VerticalSchema>['status'] });

/** Verticals and their discovery jobs (docs/capabilities.md). */
export function verticalRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/verticals',
      {
        schema: {
          body: z.strictObject({
            name: z.string().trim().min(1).max(200),
            description: z.string().trim().min(1).max(4000).optional(),
          }),
          response: {
            202: z.object({
              vertical_id: z.string(),
              job_id: z.string(),
              workflow_id: z.string(),
              prompt_id: z.string(),
              status: z.literal('discovering'),
            }),
            400: ErrorSchema,
            503: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const started = await admitRequest(deps, request, (admitted) =>
          startVerticalDiscovery(deps, admitted, request.body, request.log),
        );
        return reply.code(202).send({ ...started, status: 'discovering' as const });
      },
    );

    app.get(
      '/v1/verticals',
      {
        schema: {
          querystring: z.strictObject(pageQuery),
          response: {
            200: z.object({ verticals: z.array(VerticalSchema), next_cursor: z.string().nullable() }),
            400: ErrorSchema,
          },
        },
      },
      async (request) => {
        const after = cursorParts(request.query.cursor, [CURSOR_TIME, VERTICAL_ID]) as [string, string] | undefined;
        const limit = request.query.limit ?? DEFAULT_LIMIT;
        const rows = await listVerticals(deps.pool, { orgId: orgScope(principalOf(request)), limit, after });
        const page = pageOf(rows, limit, (row) => [row.created_at, row.vertical_id]);
        return { verticals: page.rows.map(view), next_cursor: page.next_cursor };
      },
    );

    app.get(
      '/v1/verticals/:id',
      {
        schema: {
          params: z.object({ id: z.string().min(1).max(100) }),
          response: { 200: VerticalSchema, 404: ErrorSchema },
        },
      },
      async (request) => {
        const row = await getVertical(deps.pool, request.params.id);
        if (!row || !canSee(principalOf(request), row.org_id)) throw new NotFound(`vertical ${request.params.id}`);
        return view(row);
      },
    );
  };
}
