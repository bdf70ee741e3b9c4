import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import picomatch from 'picomatch';
import type { Pool } from 'pg';
import { claimMcpCall, findMcpCall, finishMcpCall, mcpServersForJob } from '../mcp/store';
import { connectMcp, McpUnavailable, reasonOf, type McpClientOptions } from '../mcp/client';
import type { McpServerConfig, McpToolPolicy } from '../mcp/server-config';
import { MCP_TOOL_PREFIX, type McpToolOffer, type McpToolset } from '../pure/mcp-tools';
import type { SecretStore } from '../secrets/store';

/**
 * MCP client tools (docs/mcp.md, "Attaching an MCP server"): a level's tools from the MCP servers attached to its
 * job's project, listed once when the level starts (the list is the activity's result, so a replay offers the same
 * tools), and each call made through the official SDK client, claimed in `mcp_calls` first so a retried activity
 * never calls a tool twice. A server that is down is an answer the model reads, never a thrown error.
 */

/** The vendors' tool-name rule (OpenAI, Anthropic, Gemini all accept it). */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** What one answer may hold before it is cut (the model's context is not the place for a whole export). */
export const MCP_ANSWER_CAP_CHARS = 20_000;
/** Pages of `tools/list` read from one server, at most. */
const MAX_LIST_PAGES = 10;

export interface McpDeps {
  pool: Pool;
  secrets?: SecretStore;
  /** Local development only: lets a project's stdio servers start as the worker's child processes. */
  mcp?: { allowStdio?: boolean };
}

/**
 * The name a tool is offered under: `mcp__<server>__<tool>`; a tool whose own name has characters the vendors refuse,
 * or that would be too long, keeps a readable cut of it and a hash that tells it apart.
 */
export function offeredName(server: string, tool: string): string {
  const plain = `${MCP_TOOL_PREFIX}${server}__${tool}`;
  if (TOOL_NAME.test(plain)) return plain;
  const hash = createHash('sha256').update(tool).digest('hex').slice(0, 8);
  const room = 64 - `${MCP_TOOL_PREFIX}${server}__`.length - hash.length - 1;
  return `${MCP_TOOL_PREFIX}${server}__${tool.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, Math.max(room, 1))}_${hash}`;
}

const matches = (patterns: string[] | undefined, name: string) =>
  (patterns ?? []).some((pattern) => picomatch.isMatch(name, pattern, { dot: true }));

/** Whether the project's policy lets the levels see the tool. */
export function toolAllowed(policy: McpToolPolicy, tool: string): boolean {
  return (policy.allow === undefined || matches(policy.allow, tool)) && !matches(policy.deny, tool);
}

function cut(text: string): string {
  return text.length > MCP_ANSWER_CAP_CHARS
    ? `${text.slice(0, MCP_ANSWER_CAP_CHARS)}\n[cut: ${text.length - MCP_ANSWER_CAP_CHARS} more characters]`
    : text;
}

/** A tool result's content blocks as text for the model. */
function textOfResult(result: { content?: unknown; structuredContent?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  const parts = blocks.map((block) => {
    if (block.type === 'text' && typeof block.text === 'string') return block.text;
    if (block.type === 'resource_link' || block.type === 'resource') {
      const resource = (block.resource ?? block) as { uri?: unknown; text?: unknown };
      return typeof resource.text === 'string' ? resource.text : `[resource ${String(resource.uri)}]`;
    }
    return `[${String(block.type)} content, not shown]`;
  });
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join('\n') || '(no content)';
}

/**
 * A tool's input schema as the vendors take it: the JSON Schema object the server listed, without the `$schema`
 * dialect marker some servers' schema generators add (a vendor that checks its keywords may refuse it).
 */
export function parametersOf(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const parameters = { ...inputSchema };
  delete parameters.$schema;
  return parameters;
}

/** One server's tools as the project's policy lets the levels see them; throws McpUnavailable when it does not answer. */
export async function listServer(
  server: McpServerConfig,
  options: McpClientOptions,
): Promise<{ tools: McpToolOffer[]; denied: string[] }> {
  const client = await connectMcp(server, options);
  try {
    const tools: McpToolOffer[] = [];
    const denied: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
      const listed = await client.listTools(cursor ? { cursor } : {}, { timeout: server.timeout_ms });
      for (const tool of listed.tools) {
        const name = offeredName(server.name, tool.name);
        if (!toolAllowed(server.tools, tool.name)) {
          denied.push(name);
          continue;
        }
        const about = tool.description ?? tool.title ?? tool.name;
        tools.push({
          name,
          server: server.name,
          tool: tool.name,
          description: `${about.slice(0, 1000)} (tool ${tool.name} of MCP server ${server.name})`,
          parameters: parametersOf(tool.inputSchema),
          needsApproval: matches(server.tools.needs_approval, tool.name),
        });
      }
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return { tools, denied };
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * The listing of one server within `ms` in all (its connection tries and its pages), so a server that answers slowly
 * page after page cannot hold the level past its activity's limit.
 */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new McpUnavailable(`no complete tool list within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export interface McpCallInput {
  jobId: string;
  /** The call's key: the level and the call's place in it (`<level id>#<round>.<n>`), the same on every retry. */
  callKey: string;
  server: string;
  tool: string;
  /** The offered name, for the answers' wording. */
  name: string;
  /** The model's arguments, as it sent them (JSON text). */
  arguments: string;
}

export interface McpCallOutcome {
  /** What the model reads as the tool result. */
  content: string;
  /** The call did not give the tool's answer: refused, the server down, or the tool's own error. */
  isError: boolean;
}

export function mcpActivities(deps: McpDeps) {
  const options = (): McpClientOptions => ({ secrets: deps.secrets, allowStdio: deps.mcp?.allowStdio === true });

  return {
    /**
     * The MCP tools a level may call: those of the servers it is granted (`*`: every server of the job's project)
     * that the project's policy allows. A server that does not answer is listed as unavailable, with why; never
     * throws for a server, only when the database is away (retried like every activity).
     */
    async listMcpTools(input: { jobId: string; servers: readonly string[] }): Promise<McpToolset> {
      const attached = await mcpServersForJob(deps.pool, input.jobId);
      const every = input.servers.includes('*');
      const granted = attached.filter((server) => every || input.servers.includes(server.name));
      const toolset: McpToolset = { tools: [], denied: [], unavailable: [] };
      for (const name of input.servers) {
        if (name !== '*' && !attached.some((server) => server.name === name))
          toolset.unavailable.push({ server: name, reason: "it is not attached to the job's project" });
      }
      const listed = await Promise.all(
        granted.map(async (server) => {
          try {
            return { server, listed: await withDeadline(listServer(server, options()), 4 * server.timeout_ms) };
          } catch (err) {
            return { server, reason: err instanceof McpUnavailable ? err.message : reasonOf(err) };
          }
        }),
      );
      for (const entry of listed) {
        if (entry.listed) {
          toolset.tools.push(...entry.listed.tools);
          toolset.denied.push(...entry.listed.denied);
        } else toolset.unavailable.push({ server: entry.server.name, reason: entry.reason ?? 'no answer' });
      }
      return toolset;
    },

    /**
     * One MCP tool call, at most once: claimed under its key after the connection is up and before the request goes
     * out; a retry answers from the record. The server down, a timeout, the tool's own error: all are answers
     * (`isError`), never a thrown error.
     */
    async callMcpTool(input: McpCallInput): Promise<McpCallOutcome> {
      let args: unknown;
      try {
        args = JSON.parse(input.arguments || '{}');
      } catch {
        args = undefined;
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        return { isError: true, content: `${input.name} needs its arguments as one JSON object` };

      const recorded = await findMcpCall(deps.pool, input.callKey);
      if (recorded) return fromRecord(input.name, recorded);
      const server = (await mcpServersForJob(deps.pool, input.jobId)).find((s) => s.name === input.server);
      if (!server)
        return { isError: true, content: `${input.name} is unavailable: MCP server ${input.server} was detached` };
      if (!toolAllowed(server.tools, input.tool))
        return { isError: true, content: `${input.name} refused: the project's configuration now denies it` };

      let client: Client;
      try {
        client = await connectMcp(server, options());
      } catch (err) {
        const reason = err instanceof McpUnavailable ? err.message : reasonOf(err);
        return {
          isError: true,
          content: `${input.name} failed: MCP server ${server.name} did not answer (${reason}). The tool was not called; go on without it, or try once more later in the task.`,
        };
      }
      try {
        if (!(await claimMcpCall(deps.pool, { ...input, server: server.name }))) {
          const earlier = await findMcpCall(deps.pool, input.callKey);
          if (earlier) return fromRecord(input.name, earlier);
        }
        let outcome: McpCallOutcome;
        try {
          const result = await client.callTool(
            // The call's key, for servers that deduplicate: a retried level never sends it twice, but a proxy might.
            { name: input.tool, arguments: args as Record<string, unknown>, _meta: { 'keel/call_key': input.callKey } },
            undefined,
            { timeout: server.timeout_ms },
          );
          const text = cut(textOfResult(result as { content?: unknown; structuredContent?: unknown }));
          outcome = result.isError
            ? { isError: true, content: `${input.name} answered with an error: ${text}` }
            : { isError: false, content: text };
        } catch (err) {
          outcome = {
            isError: true,
            content: `${input.name} failed: ${reasonOf(err)}. Whether the server acted on the call is unknown; check before calling it again.`,
          };
        }
        await finishMcpCall(deps.pool, input.callKey, outcome);
        return outcome;
      } finally {
        await client.close().catch(() => undefined);
      }
    },
  };
}

function fromRecord(
  name: string,
  record: { startedAt: Date; finishedAt: Date | null; isError: boolean | null; content: string | null },
): McpCallOutcome {
  if (!record.finishedAt) {
    return {
      isError: true,
      content:
        `${name} not called again: an earlier attempt of this call sent it at ${record.startedAt.toISOString()} and ` +
        'its worker stopped before the answer came, so whether the server acted on it is unknown. Check before ' +
        'calling it again.',
    };
  }
  return { isError: record.isError === true, content: record.content ?? '' };
}
