/**
 * Records the Temporal histories of representative jobs against the real stack (dev server, PostgreSQL, Redis, the
 * offline demo model) and writes them to test/replay/histories/, which replay.test.ts replays against the current
 * workflow code. Run it on purpose only, when a workflow change is meant to alter histories: `npm run replay:record`
 * (docs/replay.md).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { startInfrastructure, startKeel, type KeelUnderTest } from '../integration/harness';
import { HISTORIES_DIR, historyToPlain, type RecordedJob } from './histories';

interface JobPlan {
  file: string;
  name: string;
  prompt: string;
  /** Submitted through `POST /v1/chat` with this job ceiling (`budget_usd`) rather than as a new workflow. */
  budgetUsd?: number;
  /** What a person does when an event arrives. */
  react?: (event: EventEnvelope, keel: KeelUnderTest, workflowId: string) => Promise<void>;
}

// A person answers as soon as the event arrives: the job takes it by then (docs/human-input.md), so no retry.
const post = async (keel: KeelUnderTest, route: string, body: unknown): Promise<Record<string, unknown>> => {
  const response = await fetch(`${keel.baseUrl}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${route}: ${response.status} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
};

const PLANS: JobPlan[] = [
  { file: 'default', name: 'default scenario, chained to review', prompt: 'Write hello.md that greets the reader' },
  {
    file: 'ask-user',
    name: 'ask_user answered through resume',
    prompt: 'Write hello.md that greets the reader #ask',
    react: async (event, keel) => {
      if (event.kind === 'ask_user')
        await post(keel, `/v1/jobs/${event.job_id}/resume`, { call_id: event.payload.call_id, answer: 'friendly' });
    },
  },
  {
    file: 'ask-escalated',
    name: 'ask_user answered, then asked again under the same call id by the L2 an escalation runs again',
    prompt: 'Write hello.md that greets the reader #ask #verify-fail=4',
    react: async (event, keel) => {
      if (event.kind === 'ask_user')
        await post(keel, `/v1/jobs/${event.job_id}/resume`, { call_id: event.payload.call_id, answer: 'friendly' });
    },
  },
  {
    file: 'approval',
    name: 'approval requested and approved',
    prompt: 'Write hello.md that greets the reader #approve',
    react: async (event, keel) => {
      if (event.kind === 'approval_requested')
        await post(keel, `/v1/approvals/${String(event.payload.approval_id)}/decide`, { decision: 'approve' });
    },
  },
  {
    file: 'verifier-escalation',
    name: 'verifier retries three times, then escalates to L2',
    prompt: 'Write hello.md that greets the reader #verify-fail=4',
  },
  {
    file: 'cancel',
    name: 'cancelled while waiting on a question',
    prompt: 'Write hello.md that greets the reader #ask',
    react: async (event, keel) => {
      if (event.kind === 'ask_user') await post(keel, `/v1/jobs/${event.job_id}/cancel`, {});
    },
  },
  {
    file: 'follow-up',
    name: 'follow-up prompt appended while the job runs',
    prompt: 'Write notes.md with a short title #ask',
    react: async (event, keel, workflowId) => {
      if (event.kind !== 'ask_user') return;
      await post(keel, `/v1/workflows/${workflowId}/prompts`, { prompt: 'Sign it with the team name' });
      await post(keel, `/v1/jobs/${event.job_id}/resume`, { call_id: event.payload.call_id, answer: 'plain' });
    },
  },
  { file: 'command', name: 'a /echo command answered in code', prompt: '/echo replay' },
  {
    file: 'budget-pause',
    name: 'paused on its budget ($5 ceiling, $2 calls), raised through resume',
    prompt: 'Write hello.md that greets the reader #cost=2',
    budgetUsd: 5,
    react: async (event, keel) => {
      if (event.kind === 'ask_user' && String(event.payload.call_id).startsWith('budget-'))
        await post(keel, `/v1/jobs/${event.job_id}/resume`, { call_id: event.payload.call_id, answer: 'raise by $20' });
    },
  },
  {
    file: 'product',
    name: 'a product build: gates, template, design, a failed build, a blocking security review, a human task',
    prompt: 'Build a landing page for a bakery #build #clarify #build-fail=1 #security-block=2',
    react: async (event, keel) => {
      if (event.kind === 'ask_user')
        await post(keel, `/v1/jobs/${event.job_id}/resume`, {
          call_id: event.payload.call_id,
          answer: 'A static page with our opening hours',
        });
      // No Vercel token on this stack: the release asks for one; completing the task retries the deploy once.
      if (event.kind === 'human_task_assigned')
        await post(keel, `/v1/human-tasks/${String(event.payload.task_id)}/complete`, { note: 'tried' });
    },
  },
];

async function record(keel: KeelUnderTest, plan: JobPlan): Promise<RecordedJob> {
  const created =
    plan.budgetUsd === undefined
      ? await post(keel, '/v1/workflows', { prompt: plan.prompt })
      : await post(keel, '/v1/chat', { prompt: plan.prompt, budget_usd: plan.budgetUsd });
  const jobId = created.job_id as string;
  const workflowId =
    (created.workflow as { workflow_id: string } | undefined)?.workflow_id ?? (created.workflow_id as string);
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
    await plan.react?.(event, keel, workflowId);
  }
  const client = keel.deps.temporal;
  await client.workflow
    .getHandle(jobId)
    .result()
    .catch(() => undefined);
  const job = await client.workflow.getHandle(jobId).fetchHistory();
  const children = (job.events ?? []).flatMap((e) => {
    const started = e.childWorkflowExecutionStartedEventAttributes;
    return started?.workflowExecution?.workflowId ? [started.workflowExecution.workflowId] : [];
  });
  const workflows: RecordedJob['workflows'] = [];
  for (const id of [jobId, ...children]) {
    const history = id === jobId ? job : await client.workflow.getHandle(id).fetchHistory();
    const type = history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? '';
    workflows.push({ workflowId: id, workflowType: type, history: historyToPlain(history) });
  }
  return { name: plan.name, prompt: plan.prompt, workflows };
}

async function main(): Promise<void> {
  const infra = await startInfrastructure();
  const keel = await startKeel({ ...infra });
  try {
    await keel.startWorker();
    await fs.mkdir(HISTORIES_DIR, { recursive: true });
    // Named plans (`npm run replay:record -- product`) are recorded alone and the other files kept, so histories of
    // older workflow code go on checking its patches. Without names, a job dropped from PLANS takes its file with it.
    const only = process.argv.slice(2);
    const unknown = only.filter((name) => !PLANS.some((plan) => plan.file === name));
    if (unknown.length > 0) throw new Error(`no recorded job named ${unknown.join(', ')}`);
    if (only.length === 0) {
      for (const old of await fs.readdir(HISTORIES_DIR)) {
        if (old.endsWith('.json.gz')) await fs.rm(path.join(HISTORIES_DIR, old));
      }
    }
    for (const plan of PLANS.filter((p) => only.length === 0 || only.includes(p.file))) {
      const recorded = await record(keel, plan);
      const file = path.join(HISTORIES_DIR, `${plan.file}.json.gz`);
      await fs.writeFile(file, gzipSync(`${JSON.stringify(recorded, null, 1)}\n`, { level: 9 }));
      const { size } = await fs.stat(file);
      console.log(`${plan.file}: ${recorded.workflows.length} workflows, ${(size / 1024).toFixed(0)} KiB`);
    }
  } finally {
    await keel.close();
    await infra.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
