/**
 * What a level knows of its MCP tools (docs/mcp.md, "Attaching an MCP server"): the toolset an activity listed from
 * the servers attached to the job's project, carried into the level as data, so the level offers and dispatches the
 * same tools on every replay. Pure: workflows and activities share it.
 */

/** Every MCP tool's name starts with this, then the server's name, `__`, and the tool's own name. */
export const MCP_TOOL_PREFIX = 'mcp__';

/** One MCP tool as the model sees it and as the level calls it. */
export interface McpToolOffer {
  /** The name offered to the model: `mcp__<server>__<tool>` (vendors' `^[a-zA-Z0-9_-]{1,64}$`). */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  description: string;
  /** The tool's input JSON Schema, as the server listed it. */
  parameters: Record<string, unknown>;
  /** The project marks it as needing an approval before each call. */
  needsApproval: boolean;
}

/** A level's MCP tools: what it offers, what the project denies, and which servers did not answer. */
export interface McpToolset {
  tools: McpToolOffer[];
  /** Offered names of tools the project's configuration denies (`mcp__<server>__<tool>`), by their server. */
  denied: string[];
  /** Servers that could not be listed, and why (no tool of theirs is offered). */
  unavailable: { server: string; reason: string }[];
}

/** The server a name of the `mcp__<server>__<tool>` form names; undefined for any other name. */
export function mcpServerOf(name: string): string | undefined {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return undefined;
  const rest = name.slice(MCP_TOOL_PREFIX.length);
  const end = rest.indexOf('__');
  return end > 0 ? rest.slice(0, end) : undefined;
}

/**
 * What the model reads when it calls an MCP tool the level does not offer: denied by the project, on a server that is
 * down, or unknown. Never throws: the model can go on without the tool.
 */
export function unofferedMcpTool(toolset: McpToolset | undefined, name: string): string {
  const server = mcpServerOf(name);
  if (toolset?.denied.includes(name))
    return `${name} refused: the project's configuration of MCP server ${server} denies this tool. Do without it.`;
  const down = toolset?.unavailable.find((u) => u.server === server);
  if (down)
    return `${name} is unavailable: MCP server ${server} did not answer (${down.reason}), so none of its tools can be called in this step. Go on without them, and say so in your answer if the task needed them.`;
  return `unknown tool ${name}: no MCP server this level may use offers it`;
}
