import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { registerKbTools, toolResultOf, type KeelApiCall, type ToolResult } from '../../kb/mcp/server';
import type { EventEnvelope } from '../../events/envelope';
import { isTerminalKind } from '../../events/kinds';

/** What the job tools need beyond the API's routes: reading a job's events as they come. */
export interface KeelMcpDeps {
  /** Calls an API route as the MCP client's token (ownership, org scoping and rate limits as for any API call). */
  call: KeelApiCall;
  /** Reads a route's raw answer (a job file's bytes and type). */
  read: (path: string) => Promise<{ status: number; contentType: string; body: Buffer }>;
  /** The job's events after `after`, in order, until it ends or `signal` aborts (events/job-event-feed.ts). */
  events: (jobId: string, after: number, signal: AbortSignal) => AsyncIterable<EventEnvelope>;
}

/** The most events one `follow_job` call returns; the client calls again from `last_sequence` for more. */
const MAX_FOLLOWED_EVENTS = 200;
/** The longest one `follow_job` call waits: MCP clients time requests out (the SDK's default is 60 s). */
const MAX_FOLLOW_SECONDS = 50;
/** A file read through `read_job_file` is cut past this many characters, with a note saying so. */
const MAX_FILE_CHARS = 100_000;

const jobId = z.string().min(1).max(100).describe('The job id, job-…, as submit_job returned it');

function text(value: unknown): ToolResult {
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
}

function toolError(message: string): ToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

function parsed(result: ToolResult): unknown {
  return JSON.parse(result.content[0]!.text);
}

/**
 * Keel as an MCP server (docs/mcp.md): the knowledge-hub tools and job tools — submit a job, follow it, answer its
 * question, decide its approval, list and read its files. Every tool is an API route called as the client's token, so
 * what an MCP client may do is exactly what that token may do over HTTP, and refusals come back as tool errors with
 * the API's code and message.
 */
export function createKeelMcpServer(deps: KeelMcpDeps, version: string): McpServer {
  const server = new McpServer(
    { name: 'keel', version },
    {
      instructions:
        'Keel runs jobs: a prompt becomes a team of agents (a lead plans, managers write tasks, an executor writes ' +
        'files, a verifier checks). submit_job starts one; follow_job reports its events; when a job is paused, ' +
        'get_job says what it waits for: answer with answer_question or decide_approval. list_job_files and ' +
        'read_job_file read what it wrote. kb_query and kb_doc search the knowledge hub.',
    },
  );
  const { call } = deps;
  registerKbTools(server, call);

  server.registerTool(
    'submit_job',
    {
      title: 'Submit a job',
      description:
        'Starts a Keel job from a prompt. Returns JSON with job_id (use it with the other job tools) and status ' +
        '"queued". The job runs on its own; follow it with follow_job.',
      inputSchema: {
        prompt: z.string().min(1).max(20_000).describe('What the team should do, in plain words'),
        project_slug: z.string().max(64).optional().describe('The project to run it in (default: your org default)'),
        workflow_id: z.string().max(40).optional().describe('Continue this workflow (wf-…) instead of a new one'),
        model_tier: z.enum(['free', 'cheap', 'frontier']).optional().describe('Which model tier to use'),
        budget_usd: z.number().positive().optional().describe("The job's cost ceiling in USD"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ prompt, project_slug, workflow_id, model_tier, budget_usd }) =>
      call('POST', '/v1/chat', {
        prompt,
        ...(project_slug ? { project_slug } : {}),
        ...(workflow_id ? { workflow_id } : {}),
        ...(model_tier ? { metadata: { model_tier } } : {}),
        ...(budget_usd ? { budget_usd } : {}),
      }),
  );

  server.registerTool(
    'get_job',
    {
      title: 'Read a job',
      description:
        "A job's status (queued, running, paused, completed, failed, cancelled), its cost so far, and when paused, " +
        'what it waits for: open questions (answer_question) and approvals (decide_approval).',
      inputSchema: { job_id: jobId },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ job_id }) => call('GET', `/v1/jobs/${encodeURIComponent(job_id)}`),
  );

  server.registerTool(
    'follow_job',
    {
      title: "Follow a job's events",
      description:
        "Waits for a job's events after a sequence and returns them: each with sequence, kind (level_started, " +
        'tool_call, file_created, ask_user, approval_requested, final, error, …), the agent role and its payload. ' +
        `Returns when the job ends, after ${MAX_FOLLOWED_EVENTS} events, or after wait_seconds. Call again with ` +
        'after_sequence = last_sequence to go on. With a progress token, each event is also sent as a progress ' +
        'notification as it happens.',
      inputSchema: {
        job_id: jobId,
        after_sequence: z.number().int().min(0).optional().describe('Only events after this sequence (default 0)'),
        wait_seconds: z
          .number()
          .int()
          .min(0)
          .max(MAX_FOLLOW_SECONDS)
          .optional()
          .describe(`How long to wait for events (default 30, at most ${MAX_FOLLOW_SECONDS})`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ job_id, after_sequence = 0, wait_seconds = 30 }, extra) => {
      // The job route decides visibility (another org's job is a 404 there, and here).
      const job = await call('GET', `/v1/jobs/${encodeURIComponent(job_id)}`);
      if (job.isError) return job;
      const { job_id: id } = parsed(job) as { job_id: string };
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(), wait_seconds * 1000);
      const onCancel = () => stop.abort();
      extra.signal.addEventListener('abort', onCancel);
      const events: EventEnvelope[] = [];
      const progressToken = extra._meta?.progressToken;
      try {
        for await (const event of deps.events(id, after_sequence, stop.signal)) {
          events.push(event);
          if (progressToken !== undefined) {
            await extra.sendNotification({
              method: 'notifications/progress',
              params: {
                progressToken,
                progress: events.length,
                message: `${event.sequence} ${event.kind}${event.agent_role ? ` (${event.agent_role})` : ''}`,
              },
            });
          }
          if (events.length >= MAX_FOLLOWED_EVENTS || isTerminalKind(event.kind)) break;
        }
      } finally {
        clearTimeout(timer);
        extra.signal.removeEventListener('abort', onCancel);
      }
      const last = events.at(-1);
      return text({
        job_id: id,
        events,
        last_sequence: last?.sequence ?? after_sequence,
        ended: last ? isTerminalKind(last.kind) : false,
      });
    },
  );

  server.registerTool(
    'answer_question',
    {
      title: "Answer a job's question",
      description:
        "Answers a question a paused job asked (ask_user). Without call_id, answers the job's only open question; " +
        'when it has several, get_job lists them with their call_id.',
      inputSchema: {
        job_id: jobId,
        answer: z.string().min(1).max(20_000).describe('The answer, in plain words'),
        call_id: z.string().min(1).max(200).optional().describe("The question's call_id, from get_job"),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async ({ job_id, answer, call_id }) => {
      let callId = call_id;
      if (!callId) {
        const job = await call('GET', `/v1/jobs/${encodeURIComponent(job_id)}`);
        if (job.isError) return job;
        const questions = (parsed(job) as { pending: { questions: { call_id: string }[] | null } | null }).pending
          ?.questions;
        if (!questions?.length) return toolError(`job ${job_id} has no open question`);
        if (questions.length > 1) {
          return toolError(
            `job ${job_id} has ${questions.length} open questions: pass call_id, one of ${questions.map((q) => q.call_id).join(', ')}`,
          );
        }
        callId = questions[0]!.call_id;
      }
      return call('POST', `/v1/jobs/${encodeURIComponent(job_id)}/resume`, { call_id: callId, answer });
    },
  );

  server.registerTool(
    'decide_approval',
    {
      title: 'Approve or reject',
      description:
        'Decides an approval a job asked for (approval_requested): approve lets the step go ahead, reject refuses ' +
        'it. The approval_id is in get_job (pending.approvals) and in the approval_requested event.',
      inputSchema: {
        approval_id: z.string().min(1).max(100).describe('The approval id'),
        decision: z.enum(['approve', 'reject']),
        comment: z.string().max(2_000).optional().describe('Why, for the record'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ approval_id, decision, comment }) =>
      call('POST', `/v1/approvals/${encodeURIComponent(approval_id)}/decide`, {
        decision,
        ...(comment ? { comment } : {}),
      }),
  );

  server.registerTool(
    'list_job_files',
    {
      title: "List a job's files",
      description: 'The files a job wrote: JSON with each path, its size and when it was written.',
      inputSchema: { job_id: jobId },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ job_id }) => call('GET', `/v1/jobs/${encodeURIComponent(job_id)}/files`),
  );

  server.registerTool(
    'read_job_file',
    {
      title: "Read a job's file",
      description:
        `One file a job wrote, as text (cut after ${MAX_FILE_CHARS} characters, with a note). A binary file is ` +
        'described (type and size), not returned.',
      inputSchema: {
        job_id: jobId,
        path: z.string().min(1).max(1_000).describe('The path as list_job_files gives it, e.g. notes.md'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ job_id, path }) => {
      const route = `/v1/jobs/${encodeURIComponent(job_id)}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
      const file = await deps.read(route);
      if (file.status !== 200) return toolResultOf(file.status, file.body.toString('utf8'));
      if (!/^(text\/|application\/(json|xml|javascript|yaml))/.test(file.contentType)) {
        return text(`${path} is not text (${file.contentType}, ${file.body.length} bytes): read it over the API.`);
      }
      const content = file.body.toString('utf8');
      if (content.length <= MAX_FILE_CHARS) return text(content);
      return text(
        `${content.slice(0, MAX_FILE_CHARS)}\n\n[cut: ${path} has ${content.length} characters; ` +
          `GET ${route} serves it whole]`,
      );
    },
  );

  return server;
}
