import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createToken } from '../../db/tokens';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

let infra: Infrastructure;
let keel: KeelUnderTest;
let strangerToken: string;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  await keel.startWorker();
  strangerToken = (await createToken(infra.db.pool, { userId: 'eve', orgId: 'org-elsewhere', isAdmin: false })).token;
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

/** An MCP client as a desktop app or an agent framework configures one: the URL and the API token as a header. */
async function connect(token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${keel.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'keel-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

type ToolAnswer = Awaited<ReturnType<Client['callTool']>>;
const textOf = (result: ToolAnswer) => (result.content as { type: string; text: string }[]).map((c) => c.text).join('');
const jsonOf = <T>(result: ToolAnswer): T => {
  expect(result.isError).toBeFalsy();
  return JSON.parse(textOf(result)) as T;
};

interface Followed {
  events: { sequence: number; kind: string; agent_role?: string }[];
  last_sequence: number;
  ended: boolean;
}

/** Calls follow_job until `until` holds for an event or the job ends, with progress notifications on. */
async function followUntil(client: Client, jobId: string, after: number, until: (kind: string) => boolean) {
  const progress: string[] = [];
  const seen: Followed['events'] = [];
  let last = after;
  for (;;) {
    const page = jsonOf<Followed>(
      await client.callTool(
        { name: 'follow_job', arguments: { job_id: jobId, after_sequence: last, wait_seconds: 20 } },
        undefined,
        { onprogress: (p) => progress.push(p.message ?? ''), timeout: 60_000 },
      ),
    );
    seen.push(...page.events);
    last = page.last_sequence;
    if (page.ended || page.events.some((e) => until(e.kind))) return { seen, last, progress };
  }
}

test('an MCP client submits a job, follows it, answers its question and reads the file it wrote', async () => {
  const client = await connect(keel.token);
  const tools = (await client.listTools()).tools.map((t) => t.name);
  expect(tools).toEqual(
    expect.arrayContaining([
      'submit_job',
      'get_job',
      'follow_job',
      'answer_question',
      'decide_approval',
      'list_job_files',
      'read_job_file',
      'kb_query',
      'kb_doc',
    ]),
  );

  const submitted = jsonOf<{ job_id: string; status: string }>(
    await client.callTool({ name: 'submit_job', arguments: { prompt: 'Write hello.md that greets the reader #ask' } }),
  );
  expect(submitted.status).toBe('queued');

  // The job asks: its events arrive as progress notifications while the tool waits, and in its answer.
  const asked = await followUntil(client, submitted.job_id, 0, (kind) => kind === 'ask_user');
  expect(asked.seen.map((e) => e.kind)).toContain('ask_user');
  expect(asked.progress.some((message) => /ask_user/.test(message))).toBe(true);
  const paused = jsonOf<{ status: string; pending: { questions: { call_id: string }[] } }>(
    await client.callTool({ name: 'get_job', arguments: { job_id: submitted.job_id } }),
  );
  expect(paused.pending.questions).toHaveLength(1);

  const answered = jsonOf<{ status: string }>(
    await client.callTool({
      name: 'answer_question',
      arguments: { job_id: submitted.job_id, answer: 'Greet them warmly.' },
    }),
  );
  expect(answered.status).toBe('resumed');

  const finished = await followUntil(client, submitted.job_id, asked.last, (kind) => kind === 'final');
  expect(finished.seen.at(-1)?.kind).toBe('final');

  const files = jsonOf<{ files: { path: string }[] }>(
    await client.callTool({ name: 'list_job_files', arguments: { job_id: submitted.job_id } }),
  );
  expect(files.files.map((f) => f.path)).toContain('hello.md');
  const read = await client.callTool({
    name: 'read_job_file',
    arguments: { job_id: submitted.job_id, path: 'hello.md' },
  });
  expect(read.isError).toBeFalsy();
  const onDisk = await fetch(`${keel.baseUrl}/v1/jobs/${submitted.job_id}/files/hello.md`, {
    headers: { authorization: `Bearer ${keel.token}` },
  });
  expect(textOf(read)).toBe(await onDisk.text());

  // Answering again: the API's refusal comes back as a tool error the client's model can read.
  const again = await client.callTool({
    name: 'answer_question',
    arguments: { job_id: submitted.job_id, answer: 'Once more.' },
  });
  expect(again.isError).toBe(true);
  expect(textOf(again)).toMatch(/no open question/);
  await client.close();

  // Another org's token sees none of it: the job routes' 404, as a tool error.
  const stranger = await connect(strangerToken);
  for (const name of ['get_job', 'follow_job', 'list_job_files']) {
    const refused = await stranger.callTool({ name, arguments: { job_id: submitted.job_id } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/Keel answered 404/);
  }
  const notRead = await stranger.callTool({
    name: 'read_job_file',
    arguments: { job_id: submitted.job_id, path: 'hello.md' },
  });
  expect(notRead.isError).toBe(true);
  expect(textOf(notRead)).toMatch(/Keel answered 404/);
  await stranger.close();
});

test('/mcp needs the API token, and offers no session stream', async () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };
  const anonymous = await fetch(`${keel.baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(initialize),
  });
  expect(anonymous.status).toBe(401);
  expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('unauthorized');

  await expect(connect('not-a-token')).rejects.toThrow(/invalid or revoked API token/);

  const stream = await fetch(`${keel.baseUrl}/mcp`, {
    headers: { authorization: `Bearer ${keel.token}`, accept: 'text/event-stream' },
  });
  expect(stream.status).toBe(405);
  expect(((await stream.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
});
