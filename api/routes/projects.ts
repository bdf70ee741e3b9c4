import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createProject, getProject, listProjects, type ProjectRow } from '../../db/projects';
import type { ApiDeps } from '../deps';
import { Conflict, NotFound } from '../../refusals/refusal';
import { principalOf } from '../plugins/principal';
import { orgScope } from '../../jobs/visibility';
import { ErrorSchema } from './chat';

const SLUG = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single dashes')
  .max(64);

const ProjectSchema = z.object({ slug: z.string(), name: z.string(), created_at: z.string() });

function view(row: ProjectRow) {
  return { slug: row.slug, name: row.name, created_at: row.created_at.toISOString() };
}

export function projectRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/projects',
      {
        schema: {
          querystring: z.object({ limit: z.coerce.number().int().optional() }),
          response: { 200: z.object({ projects: z.array(ProjectSchema) }) },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const limit = Math.min(Math.max(request.query.limit ?? 100, 1), 500);
        const rows = await listProjects(deps.pool, orgScope(principal), limit);
        return { projects: rows.map(view) };
      },
    );

    app.post(
      '/v1/projects',
      {
        schema: {
          body: z.strictObject({ name: z.string().trim().min(1).max(200), slug: SLUG.optional() }),
          response: { 201: ProjectSchema, 400: ErrorSchema, 409: ErrorSchema },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const created = await createProject(deps.pool, { ...request.body, orgId: principal.org_id });
        // Only the caller's own org can have taken it: slugs are per org, so this says nothing about other orgs.
        if (!created) throw new Conflict('slug_taken', `project slug ${request.body.slug} is taken in your org`);
        return reply.code(201).send(view(created));
      },
    );

    app.get(
      '/v1/projects/:slug',
      {
        schema: { params: z.object({ slug: z.string().max(64) }), response: { 200: ProjectSchema, 404: ErrorSchema } },
      },
      async (request) => {
        const principal = principalOf(request);
        // Slugs are per org: the caller's org's project (an admin's too; another org's slug is another project).
        const row = await getProject(deps.pool, request.params.slug, principal.org_id);
        if (!row) {
          throw new NotFound(`project ${request.params.slug}`);
        }
        return view(row);
      },
    );
  };
}
