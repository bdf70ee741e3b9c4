import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { createSecretStore } from '../../secrets/store';
import { uniqueSuffix } from './env';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/*
 * MCP client tools (docs/mcp.md, "Attaching an MCP server") on the real stack: an MCP server this test starts with
 * the SDK's own McpServer and StreamableHTTPServerTransport on loopback, attached to a project through the admin API
 * with its bearer token in the secrets store. The offline demo model's `#mcp=<server>/<tool>?…` directive makes the
 * `build-and-test` executor (granted `mcp: ['*']`) call the tool; the test reads the job's events and what the server
 * saw.
 */

const TOKEN = 'tickets-token-7f3a';
const org = 'org-test';
const suffix = uniqueSuffix();

let infra: Infrastructure;
let keel: KeelUnderTest;
let secretsDir: string;
let mcpHttp: Server;
let mcpUrl: string;
/** What the MCP server saw: each tool call with its arguments and the Authorization header it came with. */
const seen: { tool: string; args: Record<string, unknown>; authorization: string | undefined }[] = [];

function ticketServer(authorization: string | undefined): McpServer {
  const server = new McpServer({ name: 'tickets', version: '1.0.0' });
  server.registerTool(
    'create_ticket',
    { description: 'Create a ticket with a title', inputSchema: { title: z.string() } },
    async (args) => {
      seen.push({ tool: 'create_ticket', args, authorization });
      return { content: [{ type: 'text', text: `ticket T-1 created: ${args.title}` }] };
    },
  );
  server.registerTool(
    'close_ticket',
    { description: 'Close a ticket', inputSchema: { id: z.string() } },
    async (args) => {
      seen.push({ tool: 'close_ticket', args, authorization });
      return { content: [{ type: 'text', text: `closed ${args.id}` }] };
    },
  );
  server.registerTool('delete_everything', { description: 'Delete every ticket', inputSchema: {} }, async (args) => {
    seen.push({ tool: 'delete_everything', args, authorization });
    return { content: [{ type: 'text', text: 'deleted' }] };
  });
  return server;
}

/** Stateless Streamable HTTP, as Keel's own /mcp: a server and transport per POST; a wrong token is a 401. */
async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.headers.authorization !== `Bearer ${TOKEN}`) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad token"}');
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const server = ticketServer(req.headers.authorization);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void transport.close().then(() => server.close()));
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

beforeAll(async () => {
  secretsDir = await mkdtemp(path.join(os.tmpdir(), 'keel-mcp-secrets-'));
  await writeFile(path.join(secretsDir, 'tickets-token'), `${TOKEN}\n`);
  mcpHttp = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => mcpHttp.listen(0, '127.0.0.1', resolve));
  mcpUrl = `http://127.0.0.1:${(mcpHttp.address() as AddressInfo).port}/mcp`;
  infra = await startInfrastructure();
  keel = await startKeel({
    ...infra,
    secrets: createSecretStore({ dir: secretsDir, ttlMs: 0, fromEnv: false, env: {} }),
  });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
  await new Promise((resolve) => mcpHttp?.close(resolve));
  if (secretsDir) await rm(secretsDir, { recursive: true, force: true });
});

async function call(pathname: string, options: { method?: string; json?: unknown } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${keel.token}` };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${keel.baseUrl}${pathname}`, {
    method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

async function submit(prompt: string, project: string): Promise<string> {
  const response = await call('/v1/chat', { json: { prompt, project_slug: project, scenario: 'build-and-test' } });
  expect(response.status).toBe(202);
  return String(response.body.job_id);
}

async function follow(jobId: string, onEvent: (event: EventEnvelope) => Promise<void> = async () => {}) {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
    events.push(event);
    await onEvent(event);
  }
  return events;
}

/** The executor's MCP tool calls and their results, as `<name> → <result preview>`. */
function mcpStory(events: EventEnvelope[]): string[] {
  const calls = events.filter((e) => e.kind === 'tool_call' && String(e.payload.name).startsWith('mcp__'));
  return calls.map((c) => {
    const result = events.find((e) => e.kind === 'tool_result' && e.payload.call_id === c.payload.call_id);
    return `${String(c.payload.name)} → ${String(result?.payload.preview)}`;
  });
}

describe('MCP servers attached to a project', () => {
  let project: string;

  beforeAll(async () => {
    project = `tickets-${suffix}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
    expect((await call('/v1/projects', { json: { name: 'Tickets', slug: project } })).status).toBe(201);
    const attached = await call(`/v1/admin/mcp-servers/orgs/${org}/projects/${project}/servers/tickets`, {
      method: 'PUT',
      json: {
        transport: 'http',
        url: mcpUrl,
        secret_id: 'tickets-token',
        tools: { deny: ['delete_*'], needs_approval: ['close_*'] },
        timeout_ms: 20_000,
      },
    });
    expect(attached.status).toBe(200);
    expect(attached.body).toMatchObject({ name: 'tickets', secret_id: 'tickets-token', url: mcpUrl });
    expect(JSON.stringify(attached.body)).not.toContain(TOKEN);
  });

  test('the admin API refuses a bad server and lists the attached one', async () => {
    const bad = await call(`/v1/admin/mcp-servers/orgs/${org}/projects/${project}/servers/Bad_Name`, {
      method: 'PUT',
      json: { transport: 'http', url: 'ftp://example.com' },
    });
    expect(bad.status).toBe(400);
    expect(typeof (bad.body.error as { code?: unknown }).code).toBe('string');
    const withCredentials = await call(`/v1/admin/mcp-servers/orgs/${org}/projects/${project}/servers/other`, {
      method: 'PUT',
      json: { transport: 'http', url: 'https://user:pass@example.com/mcp' },
    });
    expect(withCredentials.status).toBe(400);
    const listed = await call(`/v1/admin/mcp-servers/orgs/${org}/projects/${project}`);
    expect(listed.status).toBe(200);
    expect((listed.body.servers as { name: string }[]).map((s) => s.name)).toEqual(['tickets']);
  });

  test("a level calls the server's tool: tool_call / tool_result, and the server saw the bearer token", async () => {
    const jobId = await submit('Write hello.md that greets the reader #mcp=tickets/create_ticket?title=Hello', project);
    const events = await follow(jobId);

    expect(events.at(-1)?.kind).toBe('final');
    expect(mcpStory(events)).toEqual(['mcp__tickets__create_ticket → ticket T-1 created: Hello']);
    expect(seen.filter((s) => s.tool === 'create_ticket')).toEqual([
      { tool: 'create_ticket', args: { title: 'Hello' }, authorization: `Bearer ${TOKEN}` },
    ]);
    const executor = events.find((e) => e.kind === 'level_finished' && e.agent_role === 'L4.executor');
    expect(String(executor?.payload.output_preview)).toContain('MCP mcp__tickets__create_ticket: ticket T-1 created');
    // Recorded once, under the level and the call's place in it.
    const { rows } = await infra.db.pool.query('SELECT call_key, tool, is_error FROM mcp_calls WHERE job_id = $1', [
      jobId,
    ]);
    expect(rows).toEqual([{ call_key: `${jobId}/L4.executor/1#1.1`, tool: 'create_ticket', is_error: false }]);
  });

  test('a denied tool is refused to the model and never reaches the server', async () => {
    const jobId = await submit('Write hello.md that greets the reader #mcp=tickets/delete_everything', project);
    const events = await follow(jobId);

    expect(events.at(-1)?.kind).toBe('final');
    expect(mcpStory(events)).toEqual([
      "mcp__tickets__delete_everything → mcp__tickets__delete_everything refused: the project's configuration of MCP server tickets denies this tool. Do without it.",
    ]);
    expect(seen.some((s) => s.tool === 'delete_everything')).toBe(false);
  });

  test('a tool that needs approval waits for the approval, then runs', async () => {
    const jobId = await submit('Write hello.md that greets the reader #mcp=tickets/close_ticket?id=T-1', project);
    let approvalId: string | undefined;
    const events = await follow(jobId, async (event) => {
      if (event.kind !== 'approval_requested') return;
      approvalId = String(event.payload.approval_id);
      // Nothing reached the server while the approval was pending.
      expect(seen.some((s) => s.tool === 'close_ticket')).toBe(false);
      const decided = await call(`/v1/approvals/${approvalId}/decide`, {
        json: { decision: 'approve', comment: 'fine' },
      });
      expect(decided.status).toBe(200);
    });

    expect(approvalId).toBeDefined();
    const requested = events.find((e) => e.kind === 'approval_requested')!;
    expect(String(requested.payload.action)).toBe('call close_ticket on MCP server tickets with {"id":"T-1"}');
    expect(events.at(-1)?.kind).toBe('final');
    expect(mcpStory(events)).toEqual(['mcp__tickets__close_ticket → closed T-1']);
    expect(seen.filter((s) => s.tool === 'close_ticket').map((s) => s.args)).toEqual([{ id: 'T-1' }]);
  });

  test('a server that is down: its tool answers with a clear error and the job still ends final', async () => {
    // A port that nothing listens on: bound, then closed.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const attached = await call(`/v1/admin/mcp-servers/orgs/${org}/projects/${project}/servers/down`, {
      method: 'PUT',
      json: { transport: 'http', url: `http://127.0.0.1:${port}/mcp`, timeout_ms: 5_000 },
    });
    expect(attached.status).toBe(200);

    const jobId = await submit('Write hello.md that greets the reader #mcp=down/create_ticket?title=Lost', project);
    const events = await follow(jobId);

    expect(events.at(-1)?.kind).toBe('final');
    const [story] = mcpStory(events);
    expect(story).toMatch(
      /^mcp__down__create_ticket → mcp__down__create_ticket is unavailable: MCP server down did not answer \(.*ECONNREFUSED/,
    );
    // The other server's tools were still offered to the same level.
    const offered = events.find((e) => e.kind === 'level_finished' && e.agent_role === 'L4.executor');
    expect(offered?.payload.ok).toBe(true);

    expect(
      (await call(`/v1/admin/mcp-servers/orgs/${org}/projects/${project}/servers/down`, { method: 'DELETE' })).status,
    ).toBe(204);
  });
});
