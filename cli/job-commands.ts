// `keel jobs`, `keel watch`, `keel cancel`, `keel answer`, `keel approve`: the job commands that work on jobs by id.
import readline from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { isTerminalKind } from '../events/kinds';
import { parseEvent, type KnownEvent } from '../events/known-event';
import {
  cancelJob,
  decideApproval,
  getJob,
  listWorkflows,
  resumeJob,
  UsageError,
  type ApiTarget,
  type WorkflowRow,
} from './api';
import { streamJobEvents } from './event-stream';
import { followJob } from './follow';
import { renderJobRows, renderPending, type JobRow } from './render-jobs';
import type { RenderStyle } from './render';

/** The workflow list's states: `pending` is a job waiting for a person (or none started yet). */
const JOB_STATUSES = ['running', 'queued', 'pending', 'completed', 'failed', 'cancelled'] as const;

/** `keel jobs`: the latest job of each recent workflow, newest first, filtered by status. */
export async function runJobs(target: ApiTarget, args: string[], style: RenderStyle): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { status: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError('--limit is a number from 1 to 100');
  const status = values.status;
  if (status !== undefined && !(JOB_STATUSES as readonly string[]).includes(status)) {
    throw new UsageError(`--status is one of ${JOB_STATUSES.join(', ')}`);
  }
  const rows: JobRow[] = [];
  // The list is of workflows, newest first, filtered here by the latest job's status: read pages until enough match.
  let cursor: string | undefined;
  for (let page = 0; page < 20 && rows.length < limit; page += 1) {
    const listed = await listWorkflows(target, { limit: status ? 100 : limit, cursor });
    for (const workflow of listed.workflows) {
      if (rows.length < limit && workflow.latest_job_id && (!status || workflow.status === status)) {
        rows.push(jobRow(workflow, workflow.latest_job_id));
      }
    }
    if (!listed.next_cursor) break;
    cursor = listed.next_cursor;
  }
  // A paused job's row says what it waits for and the command that answers it (one request per paused job).
  for (const row of rows) {
    if (row.status === 'pending') row.pending = (await getJob(target, row.job_id)).pending ?? null;
    // A job waiting for a slot of its org (docs/scheduling.md): its place in the org's queue and why it waits.
    if (row.status === 'queued') {
      const queue = (await getJob(target, row.job_id)).queue;
      if (queue?.state === 'queued') row.queue = { position: queue.position, reason: queue.reason };
    }
  }
  if (values.json) {
    console.log(JSON.stringify(rows, null, 2));
    return 0;
  }
  console.log(renderJobRows(rows, style));
  for (const row of rows) {
    const lines = row.pending ? renderPending(row.job_id, row.pending) : [];
    if (lines.length > 0) console.log(['', ...lines].join('\n'));
  }
  return 0;
}

function jobRow(workflow: WorkflowRow, jobId: string): JobRow {
  return {
    job_id: jobId,
    status: workflow.status,
    updated_at: workflow.updated_at,
    workflow_id: workflow.workflow_id,
    project_slug: workflow.project_slug,
    scenario: workflow.scenario,
  };
}

/** `keel watch <job>`: every event from the start (a replay), then live until the job ends. */
export async function runWatch(target: ApiTarget, args: string[], style: RenderStyle): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, deltas: { type: 'boolean', default: false } },
  });
  const jobId = onlyId(positionals, 'keel watch needs a job id');
  // Fails fast (404) on an unknown id instead of streaming nothing.
  const job = await getJob(target, jobId);
  // Said first, on stderr: the replay below prints every question the job ever asked, answered or not.
  const preface = job.pending && !values.json ? renderPending(jobId, job.pending) : [];
  return followJob({ target, jobId, json: values.json, deltas: values.deltas, style, answer: false, preface });
}

export async function runCancel(target: ApiTarget, args: string[]): Promise<number> {
  const jobId = onlyId(parseArgs({ args, allowPositionals: true }).positionals, 'keel cancel needs a job id');
  await cancelJob(target, jobId);
  console.log(`cancelled job ${jobId}`);
  return 0;
}

/** `keel answer <job> [text]`: answers the question the job waits on (the text, else read from the terminal or stdin). */
export async function runAnswer(target: ApiTarget, args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { call: { type: 'string' } },
  });
  const [jobId, ...words] = positionals;
  if (!jobId) throw new UsageError('keel answer needs a job id');
  const job = await getJob(target, jobId);
  if (['completed', 'failed', 'cancelled'].includes(job.status)) {
    throw new UsageError(`job ${jobId} is ${job.status}: there is nothing to answer`);
  }
  const ask = values.call ? undefined : await pendingQuestion(target, jobId);
  const callId = values.call ?? ask?.payload.call_id;
  if (!callId) throw new UsageError(`job ${jobId} asked no question (is it waiting for an approval? keel approve)`);
  let answer = words.join(' ').trim();
  if (!answer) answer = await readAnswer(ask?.payload.question);
  if (!answer) throw new UsageError('keel answer needs an answer: as text after the job id, or on stdin');
  await resumeJob(target, jobId, callId, answer);
  console.log(`answered job ${jobId}`);
  return 0;
}

/**
 * The job's latest ask_user. A paused job writes nothing more until answered, so its stored events arrive at once and
 * a pause in the stream means they are all read.
 */
/** The question a paused job waits on, as its stream carries it. */
type AskUserEvent = Extract<KnownEvent, { kind: 'ask_user' }>;

async function pendingQuestion(target: ApiTarget, jobId: string): Promise<AskUserEvent | undefined> {
  const stop = new AbortController();
  const events = streamJobEvents({ ...target, jobId, signal: stop.signal })[Symbol.asyncIterator]();
  let ask: AskUserEvent | undefined;
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const quiet = new Promise<'quiet'>((resolve) => (timer = setTimeout(() => resolve('quiet'), 1_500)));
      const next = await Promise.race([events.next(), quiet]);
      clearTimeout(timer);
      if (next === 'quiet' || next.done) return ask;
      const event = parseEvent(next.value);
      if (event.known && event.kind === 'ask_user') ask = event;
      if (isTerminalKind(next.value.kind)) return undefined;
    }
  } finally {
    stop.abort();
    await events.return?.(undefined).catch(() => undefined);
  }
}

async function readAnswer(question: string | undefined): Promise<string> {
  if (process.stdin.isTTY) {
    const terminal = readline.createInterface({ input: process.stdin, output: process.stderr });
    try {
      return (await terminal.question(`${question ? `${question}\n` : ''}your answer> `)).trim();
    } finally {
      terminal.close();
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

export async function runApprove(target: ApiTarget, args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { reject: { type: 'boolean', default: false }, comment: { type: 'string' } },
  });
  const approvalId = onlyId(positionals, 'keel approve needs an approval id');
  const decided = await decideApproval(target, approvalId, values.reject ? 'reject' : 'approve', values.comment);
  console.log(
    `${values.reject ? 'rejected' : 'approved'} ${decided.approval_id} (${decided.action}, job ${decided.job_id})`,
  );
  return 0;
}

function onlyId(positionals: string[], missing: string): string {
  if (positionals.length === 0 || !positionals[0]) throw new UsageError(missing);
  if (positionals.length > 1) throw new UsageError(`expected one id, got: ${positionals.join(' ')}`);
  return positionals[0];
}
