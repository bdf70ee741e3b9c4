import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';

/** The MCP-client slice of the worker's environment (docs/mcp.md, "Attaching an MCP server"). */
export const mcpClientEnv = z.object({
  /**
   * `1` (or `true`): a project's stdio MCP servers may start, as child processes of the worker (local development).
   * Off by default: a deployment's workers run no command an admin typed into the API.
   */
  KEEL_MCP_STDIO: z
    .preprocess(emptyAsUndefined, z.enum(['0', '1', 'false', 'true']).optional())
    .transform((value) => value === '1' || value === 'true'),
});
export type McpClientEnv = z.infer<typeof mcpClientEnv>;

export function mcpClientSettings(env: McpClientEnv): { allowStdio: boolean } {
  return { allowStdio: env.KEEL_MCP_STDIO };
}
