import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../deps';
import { createKeelMcpServer } from '../mcp/keel-mcp-server';
import { toolResultOf, type KeelApiCall } from '../../kb/mcp/server';
import { jobEventFeed } from '../../events/job-event-feed';
import { AppError } from '../../http/errors';
import { ACTING_ROLE_HEADER, ACTING_USER_HEADER } from '../plugins/principal';
import { ErrorSchema } from './chat';

/** Where Keel's MCP server answers (a fixed interface point: MCP clients are configured with this URL). */
export const MCP_PATH = '/mcp';

/** The headers that say who a request acts as: a tool's API call carries them unchanged, so it acts as the same one. */
function identityHeaders(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['authorization', ACTING_USER_HEADER, ACTING_ROLE_HEADER]) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/**
 * A tool's call of an API route: in-process (`inject`, no socket), through the same hooks as a call from outside, so
 * the token is checked, the principal's ownership and org scoping apply, and the call counts against its rate limits.
 */
function injectApiCall(app: FastifyInstance, headers: Record<string, string>): KeelApiCall {
  return async (method, url, body) => {
    const response = await app.inject({
      method,
      url,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return toolResultOf(response.statusCode, response.body);
  };
}

/**
 * Keel's MCP server over Streamable HTTP (docs/mcp.md), stateless: each POST gets a server and transport of its own,
 * so any API replica answers any request and nothing is kept between them. The route needs the API's bearer token
 * like every route (api/plugins/principal.ts). There is no standalone server-to-client stream (GET) and no session
 * to end (DELETE): both answer 405, which MCP clients take as "not offered".
 */
export function mcpRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      MCP_PATH,
      {
        schema: {
          description:
            'Keel as an MCP server (Streamable HTTP, stateless; docs/mcp.md): knowledge-hub and job tools, each acting as the bearer token. A notification or a response from the client is answered 202 with no body.',
          // One JSON-RPC message of MCP; the transport checks the rest of it.
          body: z.looseObject({ jsonrpc: z.literal('2.0') }),
          response: {
            200: {
              description:
                'the JSON-RPC answer: `application/json`, or a `text/event-stream` carrying progress notifications before it',
              content: {
                'application/json': { schema: z.looseObject({ jsonrpc: z.literal('2.0') }) },
                'text/event-stream': { schema: z.string() },
              },
            },
            400: ErrorSchema,
            406: {
              description: 'the client does not accept both application/json and text/event-stream',
              content: { 'application/json': { schema: z.looseObject({ jsonrpc: z.literal('2.0') }) } },
            },
          },
        },
      },
      async (request, reply) => {
        const headers = identityHeaders(request);
        const server = createKeelMcpServer(
          {
            call: injectApiCall(app, headers),
            read: async (url) => {
              const response = await app.inject({ method: 'GET', url, headers });
              return {
                status: response.statusCode,
                contentType: String(response.headers['content-type'] ?? ''),
                body: response.rawPayload,
              };
            },
            events: (jobId, after, signal) =>
              jobEventFeed({ pool: deps.pool, queue: deps.queue, jobId, after, pollMs: deps.streamPollMs, signal }),
          },
          '1.0.0',
        );
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        reply.raw.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        // The transport writes the answer itself (JSON, or an event stream while a tool sends progress).
        reply.hijack();
        await transport.handleRequest(request.raw, reply.raw, request.body);
      },
    );

    const notOffered = async () => {
      throw new AppError(405, 'method_not_allowed', `${MCP_PATH} takes POST only: this MCP server keeps no sessions`);
    };
    const notOfferedSchema = {
      description: 'not offered: this MCP server keeps no sessions, so it has no stream to open and none to end',
      response: { 405: ErrorSchema },
    };
    app.get(MCP_PATH, { schema: notOfferedSchema }, notOffered);
    app.delete(MCP_PATH, { schema: notOfferedSchema }, notOffered);
  };
}
