import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SecretStore } from '../secrets/store';
import type { McpServerConfig } from './server-config';

/**
 * Keel's side of an MCP connection (docs/mcp.md, "Attaching an MCP server"): the official SDK's client over
 * Streamable HTTP, or over stdio where the worker allows it (local development). The bearer token is read from the
 * secrets store at connect time; no message this module makes carries it.
 */

/** The variable a stdio server finds its secret in. */
export const MCP_STDIO_TOKEN_VARIABLE = 'MCP_BEARER_TOKEN';

/** How often a connection is tried before the server counts as down, and the pause before each retry. */
export const CONNECT_RETRY_DELAYS_MS = [250, 1_000];

export interface McpClientOptions {
  secrets?: SecretStore;
  /** Whether stdio servers may be started (a worker's own processes): local development only. */
  allowStdio: boolean;
}

/** A server that could not be reached or refused the connection; the message says why, never with a secret in it. */
export class McpUnavailable extends Error {
  override name = 'McpUnavailable';
}

async function transportFor(server: McpServerConfig, options: McpClientOptions): Promise<Transport> {
  let token: string | undefined;
  if (server.secret_id) {
    try {
      token = await options.secrets?.get(server.secret_id);
    } catch (err) {
      // The store's errors name the id and an error code, never a value.
      throw new McpUnavailable((err as Error).message);
    }
    if (token === undefined) throw new McpUnavailable(`its secret ${server.secret_id} is not in the secrets store`);
  }
  if (server.transport === 'http') {
    return new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
    });
  }
  if (!options.allowStdio)
    throw new McpUnavailable('stdio servers are not allowed on this worker (KEEL_MCP_STDIO=1 allows them)');
  return new StdioClientTransport({
    command: server.command,
    args: server.args,
    env: { ...getDefaultEnvironment(), ...(token ? { [MCP_STDIO_TOKEN_VARIABLE]: token } : {}) },
    stderr: 'ignore',
  });
}

/** Why a connection or a request failed, in a few words a model and an operator can read (the root cause's code). */
export function reasonOf(err: unknown): string {
  const error = err as Error & { cause?: { code?: string; message?: string }; code?: unknown };
  const cause = error.cause?.code ?? error.cause?.message;
  const message = (error.message ?? String(err)).replace(/\s+/g, ' ');
  return (cause ? `${message} (${cause})` : message).slice(0, 300);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A connected client, after up to three tries (a server restarting is not a server down). Throws McpUnavailable when
 * every try failed. The caller closes the client.
 */
export async function connectMcp(server: McpServerConfig, options: McpClientOptions): Promise<Client> {
  let last: unknown;
  for (let attempt = 0; attempt <= CONNECT_RETRY_DELAYS_MS.length; attempt += 1) {
    if (attempt > 0) await pause(CONNECT_RETRY_DELAYS_MS[attempt - 1]!);
    const transport = await transportFor(server, options);
    const client = new Client({ name: 'keel', version: '0.1.0' });
    try {
      await client.connect(transport, { timeout: server.timeout_ms });
      return client;
    } catch (err) {
      last = err;
      await client.close().catch(() => undefined);
    }
  }
  throw new McpUnavailable(reasonOf(last));
}
