import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { insertDesign, listDesigns, type DesignRow } from '../../db/designs';
import { Conflict } from '../../refusals/refusal';
import { designSchema, loadShippedDesigns, type Design } from '../../products/design-catalog';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

const DesignView = designSchema.extend({ source: z.enum(['shipped', 'org']), created_at: z.string().nullable() });

function rowView(row: DesignRow): z.infer<typeof DesignView> {
  // Stored rows were validated on the way in; parsing again keeps a hand-edited row from reaching a client malformed.
  const design = designSchema.parse({
    id: row.design_id,
    name: row.name,
    description: row.description,
    keywords: row.keywords,
    tokens: row.tokens,
    layout: row.layout,
  });
  return { ...design, source: 'org', created_at: row.created_at.toISOString() };
}

/**
 * `GET /v1/designs`: the designs Keel ships, then the caller's org's own. `POST /v1/designs`: add one to the caller's
 * org; validated whole by the design schema (400, nothing stored), 409 `design_exists` when the id is taken by a
 * shipped design or one of the org's.
 */
export function designRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const shipped: Design[] = await loadShippedDesigns();

    app.get(
      '/v1/designs',
      { schema: { response: { 200: z.object({ designs: z.array(DesignView) }) } } },
      async (request) => {
        const own = await listDesigns(deps.pool, principalOf(request).org_id);
        return {
          designs: [
            ...shipped.map((d) => ({ ...d, source: 'shipped' as const, created_at: null })),
            ...own.map(rowView),
          ],
        };
      },
    );

    app.post(
      '/v1/designs',
      { schema: { body: designSchema, response: { 201: DesignView, 400: ErrorSchema, 409: ErrorSchema } } },
      async (request, reply) => {
        const principal = principalOf(request);
        const design = request.body;
        if (shipped.some((d) => d.id === design.id)) {
          throw new Conflict('design_exists', `design ${design.id} is one Keel ships; choose another id`);
        }
        const row = await insertDesign(deps.pool, principal.org_id, design, principal.user_id);
        if (!row) throw new Conflict('design_exists', `your org already has a design ${design.id}`);
        return reply.code(201).send(rowView(row));
      },
    );
  };
}
