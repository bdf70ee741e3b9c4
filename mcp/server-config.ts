import { z } from 'zod';
import { SecretIdSchema } from '../secrets/id';

/**
 * An MCP server attached to a project (docs/mcp.md, "Attaching an MCP server"), as an admin sends it and as it is
 * stored (db/migrations/0036_mcp_servers.sql). The server's bearer token is named by a secrets-store id and read
 * when a call is made; no value is ever part of the configuration.
 */

/**
 * A server's name is part of each of its tools' names (`mcp__<server>__<tool>`), which the vendors allow only as
 * `^[a-zA-Z0-9_-]{1,64}$`: a short lowercase slug, without `_` so the `__` separators stay unambiguous.
 */
export const McpServerNameSchema = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lowercase letters, digits and single dashes, e.g. tickets')
  .max(24);

/** A tool-name pattern: a glob over the server's own tool names (`create_*`, `*`). */
const ToolPattern = z.string().min(1).max(200);

/**
 * Which of the server's tools the project's levels see: `allow` (absent: every tool), minus `deny`; a tool matching
 * `needs_approval` waits for an approval (the `request_approval` path) before each call.
 */
export const McpToolPolicySchema = z.strictObject({
  allow: z.array(ToolPattern).max(100).optional(),
  deny: z.array(ToolPattern).max(100).optional(),
  needs_approval: z.array(ToolPattern).max(100).optional(),
});
export type McpToolPolicy = z.infer<typeof McpToolPolicySchema>;

/** Per call: how long the server has to answer (the connection and the call each), in milliseconds. */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;

const common = {
  secret_id: SecretIdSchema.optional().describe('the secrets-store id of the bearer token the server expects'),
  tools: McpToolPolicySchema.default({}),
  // At most 2 minutes: three connection tries and the request fit the level's 10-minute activity limit.
  timeout_ms: z.number().int().min(1_000).max(120_000).default(DEFAULT_MCP_TIMEOUT_MS),
};

const HttpUrl = z
  .string()
  .max(2_000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'an http(s) URL without credentials in it (the token is secret_id)');

/** What an admin sends to attach (or replace) a server. */
export const McpServerInputSchema = z.discriminatedUnion('transport', [
  z.strictObject({ transport: z.literal('http'), url: HttpUrl, ...common }),
  z.strictObject({
    transport: z.literal('stdio'),
    command: z.string().min(1).max(500),
    args: z.array(z.string().max(2_000)).max(50).default([]),
    ...common,
  }),
]);
export type McpServerInput = z.infer<typeof McpServerInputSchema>;

/** A server as activities read it: the input plus its name. */
export type McpServerConfig = McpServerInput & { name: string };
