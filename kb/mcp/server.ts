import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { KhIdSchema } from '../kh-id';
import { SENSITIVITY_LEVELS } from '../sensitivity';

export interface KbMcpOptions {
  /** The Keel API the tools call, e.g. http://127.0.0.1:3000. */
  baseUrl: string;
  /** The API token the tools call it with; its hub clearance is what the MCP client can read. */
  token: string;
  /** Per-request timeout (ms). */
  timeoutMs?: number;
}

export type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

/** Calls a Keel API route as the MCP client's token: over HTTP (stdio server) or in-process (the API's `/mcp`). */
export type KeelApiCall = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<ToolResult>;

/**
 * A Keel API answer as a tool result: the body on success; on an error, the envelope's code and message as a tool
 * error the client's model can read, not a protocol failure.
 */
export function toolResultOf(status: number, text: string): ToolResult {
  if (status >= 200 && status < 300) return { content: [{ type: 'text', text }] };
  let message = text.slice(0, 500);
  try {
    const parsed = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (parsed.error) message = `${parsed.error.code}: ${parsed.error.message}`;
  } catch {
    // not JSON: keep the raw text
  }
  return { isError: true, content: [{ type: 'text', text: `Keel answered ${status} (${message})` }] };
}

/** `KeelApiCall` over HTTP to a Keel API with a token (the stdio server, run beside a desktop MCP client). */
export function httpApiCall(options: KbMcpOptions): KeelApiCall {
  const base = options.baseUrl.replace(/\/$/, '');
  return async (method, path, body) => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
    } catch (err) {
      return {
        isError: true,
        content: [{ type: 'text', text: `Keel at ${base} is unreachable: ${(err as Error).message}` }],
      };
    }
    return toolResultOf(response.status, await response.text());
  };
}

/**
 * The read-only knowledge-hub tools: `kb_query` and `kb_doc` forward to POST /v1/kb/query and GET /v1/kb/doc/:kh_id
 * as the caller's token, so the API's sensitivity rules apply unchanged. Nothing here writes.
 */
export function registerKbTools(server: McpServer, call: KeelApiCall): void {
  server.registerTool(
    'kb_query',
    {
      title: 'Search the knowledge hub',
      description:
        'Hybrid (vector + full-text) search of the Keel knowledge hub. Returns JSON: results ranked best first, each ' +
        'with kh_id, path, title, heading, snippet and score. Fetch a whole document with kb_doc.',
      inputSchema: {
        query: z.string().min(1).max(2000).describe('What to look for, in plain words'),
        k: z.number().int().min(1).max(50).optional().describe('How many results (default 8)'),
        tags: z.array(z.string()).min(1).optional().describe('Only documents with any of these tags'),
        source: z.array(z.string()).min(1).optional().describe('Only these sources: hub, notion, slack, github'),
        sensitivity: z.array(z.enum(SENSITIVITY_LEVELS)).min(1).optional().describe('Only these levels'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, k, tags, source, sensitivity }) => {
      const filters = tags || source || sensitivity ? { tags, source, sensitivity } : undefined;
      return call('POST', '/v1/kb/query', { query, ...(k ? { k } : {}), ...(filters ? { filters } : {}) });
    },
  );

  server.registerTool(
    'kb_doc',
    {
      title: 'Read a knowledge-hub document',
      description: 'One knowledge-hub document by kh_id: JSON with its frontmatter and its markdown.',
      inputSchema: { kh_id: KhIdSchema.describe('The document id, kh- and 26 characters, as kb_query returns it') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ kh_id }) => call('GET', `/v1/kb/doc/${encodeURIComponent(kh_id)}`),
  );
}

/** The read-only KB MCP server over a Keel API reached by HTTP (`keel kb-mcp`, stdio). */
export function createKbMcpServer(options: KbMcpOptions): McpServer {
  const server = new McpServer({ name: 'keel-kb', version: '1.0.0' });
  registerKbTools(server, httpApiCall(options));
  return server;
}

/** Serves the KB MCP server on stdin/stdout until the client disconnects. Nothing else may write to stdout. */
export async function runKbMcpOverStdio(options: KbMcpOptions): Promise<void> {
  const server = createKbMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
