import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listServer } from '../activities/mcp';
import { connectMcp } from './client';
import type { McpServerConfig } from './server-config';

/*
 * A stdio MCP server (local development, docs/mcp.md): a small program this test writes with the SDK's own McpServer
 * and StdioServerTransport, started by the client as a child process, with the token in MCP_BEARER_TOKEN.
 */
let dir: string;
let script: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'keel-mcp-stdio-'));
  script = path.join(dir, 'server.cjs');
  const sdk = (p: string) => JSON.stringify(require.resolve(`@modelcontextprotocol/sdk/${p}`));
  await writeFile(
    script,
    `const { McpServer } = require(${sdk('server/mcp.js')});
     const { StdioServerTransport } = require(${sdk('server/stdio.js')});
     const server = new McpServer({ name: 'local', version: '1.0.0' });
     server.registerTool('whoami', { description: 'Says which token it was started with' }, async () => ({
       content: [{ type: 'text', text: process.env.MCP_BEARER_TOKEN || 'none' }],
     }));
     server.registerTool('drop_tables', { description: 'Drops every table' }, async () => ({ content: [] }));
     void server.connect(new StdioServerTransport());`,
  );
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const local = (): McpServerConfig => ({
  name: 'local',
  transport: 'stdio',
  command: process.execPath,
  args: [script],
  secret_id: 'local-token',
  tools: { deny: ['drop_*'], needs_approval: ['whoami'] },
  timeout_ms: 20_000,
});

const secrets = { get: async (id: string) => (id === 'local-token' ? 's3cret' : undefined), where: (id: string) => id };

test('a stdio server where the worker allows it: its tools listed, the denied one left out', async () => {
  const listed = await listServer(local(), { secrets, allowStdio: true });
  expect(listed.tools.map((t) => [t.name, t.needsApproval])).toEqual([['mcp__local__whoami', true]]);
  expect(listed.denied).toEqual(['mcp__local__drop_tables']);
}, 30_000);

test('the stdio server gets its token from the store in MCP_BEARER_TOKEN', async () => {
  const client = await connectMcp(local(), { secrets, allowStdio: true });
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 's3cret' }]);
  } finally {
    await client.close();
  }
}, 30_000);

test('a stdio server where the worker does not allow it is unavailable, saying why', async () => {
  await expect(listServer(local(), { secrets, allowStdio: false })).rejects.toThrow(
    'stdio servers are not allowed on this worker (KEEL_MCP_STDIO=1 allows them)',
  );
});

test('a server whose secret is not in the store is unavailable, naming the id only', async () => {
  await expect(listServer({ ...local(), secret_id: 'missing' }, { secrets, allowStdio: true })).rejects.toThrow(
    'its secret missing is not in the secrets store',
  );
});
