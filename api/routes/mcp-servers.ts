import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deleteMcpServer, listMcpServers, projectMcpServers, setMcpServer, type McpServerRow } from '../../mcp/store';
import { McpServerInputSchema, McpServerNameSchema, McpToolPolicySchema } from '../../mcp/server-config';
import type { Principal } from '../../jobs/visibility';
import { Forbidden, NotFound } from '../../refusals/refusal';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { ErrorSchema } from './chat';

const OrgId = z.string().regex(/^\S{1,128}$/, 'an org id: 1 to 128 characters without whitespace');
const Slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single dashes')
  .max(64);
const Project = z.object({ org: OrgId, slug: Slug });
const Server = Project.extend({ name: McpServerNameSchema });

export const McpServerViewSchema = z.object({
  org_id: z.string(),
  project_slug: z.string(),
  name: z.string(),
  transport: z.enum(['http', 'stdio']),
  url: z.string().nullable(),
  command: z.string().nullable(),
  args: z.array(z.string()),
  secret_id: z.string().nullable().describe('the secrets-store id of its bearer token (never the value)'),
  tools: McpToolPolicySchema,
  timeout_ms: z.number().int(),
  updated_by: z.string(),
  updated_at: z.string(),
});

const ListSchema = z.object({ servers: z.array(McpServerViewSchema) });
const errors = { 400: ErrorSchema, 401: ErrorSchema, 403: ErrorSchema };

function requireAdmin(principal: Principal): void {
  if (!principal.is_admin) throw new Forbidden('admin_only', 'MCP servers are attached and read by admins only');
}

function view(row: McpServerRow): z.infer<typeof McpServerViewSchema> {
  return {
    org_id: row.org_id,
    project_slug: row.project_slug,
    name: row.name,
    transport: row.transport,
    url: row.url,
    command: row.command,
    args: row.args,
    secret_id: row.secret_id,
    tools: row.tools,
    timeout_ms: row.timeout_ms,
    updated_by: row.updated_by,
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * The MCP servers attached to projects (docs/mcp.md, "Attaching an MCP server"), an admin's to list, attach (or
 * replace) and detach, in the style of the approval-policy routes. The levels a scenario grants a server (`mcp:`) are
 * offered its tools the next time they start.
 */
export function mcpServerRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/admin/mcp-servers',
      {
        schema: {
          querystring: z.strictObject({ org: OrgId.optional() }),
          response: { 200: ListSchema, ...errors },
        },
      },
      async (request) => {
        requireAdmin(principalOf(request));
        return { servers: (await listMcpServers(deps.pool, request.query.org ?? null)).map(view) };
      },
    );

    app.get(
      '/v1/admin/mcp-servers/orgs/:org/projects/:slug',
      { schema: { params: Project, response: { 200: ListSchema, ...errors } } },
      async (request) => {
        requireAdmin(principalOf(request));
        const { org, slug } = request.params;
        return { servers: (await projectMcpServers(deps.pool, org, slug)).map(view) };
      },
    );

    app.put(
      '/v1/admin/mcp-servers/orgs/:org/projects/:slug/servers/:name',
      {
        schema: {
          params: Server,
          body: McpServerInputSchema,
          response: { 200: McpServerViewSchema, 404: ErrorSchema, ...errors },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        requireAdmin(principal);
        const { org, slug, name } = request.params;
        const row = await setMcpServer(deps.pool, {
          orgId: org,
          projectSlug: slug,
          name,
          server: request.body,
          updatedBy: principal.user_id,
        });
        if (!row) throw new NotFound(`project ${slug} of org ${org}`);
        return view(row);
      },
    );

    app.delete(
      '/v1/admin/mcp-servers/orgs/:org/projects/:slug/servers/:name',
      { schema: { params: Server, response: { 204: z.null(), 404: ErrorSchema, ...errors } } },
      async (request, reply) => {
        requireAdmin(principalOf(request));
        const { org, slug, name } = request.params;
        if (!(await deleteMcpServer(deps.pool, org, slug, name)))
          throw new NotFound(`MCP server ${name} of project ${slug} of org ${org}`);
        return reply.code(204).send(null);
      },
    );
  };
}
