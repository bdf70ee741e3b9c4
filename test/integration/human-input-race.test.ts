import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { DEFAULT_BUILD_LIMITS } from '../../products/build-runner';
import type { runProductRelease } from '../../workflows/product-build';
import { startFakeVercel, type FakeVercel } from '../fakes/fake-vercel';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { createSecretStore } from '../../secrets/store';

/**
 * Whatever a client can see, it can act on (docs/human-input.md): a client that answers from inside its stream
 * handler, the moment `ask_user`, `approval_requested` or `human_task_assigned` arrives, is never refused, and reads
 * the job as `paused` at that moment. Each path runs ROUNDS times, a few jobs at once so the worker is busy, which is
 * when the gap between an event and the job's readiness used to show.
 */
const ROUNDS = 50;
const AT_ONCE = 5;

let infra: Infrastructure;
let keel: KeelUnderTest;
let vercel: FakeVercel;
let secretsDir: string;

beforeAll(async () => {
  infra = await startInfrastructure();
  vercel = await startFakeVercel();
  secretsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-secrets-'));
  keel = await startKeel({
    ...infra,
    products: {
      buildLimits: DEFAULT_BUILD_LIMITS,
      vercel: { apiUrl: vercel.url, pollIntervalMs: 1, readyTimeoutMs: 10_000, tokenSecretId: 'VERCEL_TOKEN' },
    },
    secrets: createSecretStore({ dir: secretsDir, ttlMs: 0, fromEnv: false, env: {} }),
  });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await vercel?.close();
  await infra?.close();
  await fs.rm(secretsDir, { recursive: true, force: true });
});

const call = (url: string, body?: unknown) =>
  fetch(`${keel.baseUrl}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function submit(prompt: string): Promise<string> {
  const response = await call('/v1/chat', { prompt });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

const statusOf = async (jobId: string) =>
  ((await (await call(`/v1/jobs/${jobId}`)).json()) as { status: string }).status;

/** Reads the job's stream, calling `onEvent` as each event arrives, until `last` says the stream has shown enough. */
async function follow(
  jobId: string,
  onEvent: (event: EventEnvelope) => Promise<void>,
  last: (event: EventEnvelope) => boolean = () => false,
): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
    events.push(event);
    await onEvent(event);
    if (last(event)) break;
  }
  return events;
}

/** Runs `one` ROUNDS times, `atOnce` at a time. */
async function rounds(one: (round: number) => Promise<void>, atOnce = AT_ONCE): Promise<void> {
  for (let start = 0; start < ROUNDS; start += atOnce) {
    await Promise.all(Array.from({ length: Math.min(atOnce, ROUNDS - start) }, (_, i) => one(start + i)));
  }
}

/** What the client saw when it acted: the job's status read on arrival, and the HTTP answer to its action. */
interface Reaction {
  status: string;
  acted: number;
  body: string;
}

const paused = (reactions: Reaction[]) => reactions.map((r) => `${r.status} ${r.acted}`);

/**
 * A job that asks (or requests an approval), reacted to by `react`. Once the level has taken what the person gave
 * (its tool_result, `taken`) the rest of the job shows nothing about the race, so it is cancelled to spare the machine.
 */
async function untilTaken(
  prompt: string,
  asked: string,
  react: (jobId: string, event: EventEnvelope) => Promise<Reaction>,
  reactions: Reaction[],
  taken: string[],
): Promise<void> {
  const jobId = await submit(prompt);
  let callId: unknown;
  await follow(jobId, async (event) => {
    if (event.kind === asked) {
      callId = event.payload.call_id;
      const reaction = await react(jobId, event);
      reactions.push(reaction);
      // Refused, the job would wait for an answer forever: end it, so the refusal is what the test reports.
      if (reaction.acted !== 200) expect((await call(`/v1/jobs/${jobId}/cancel`, {})).status).toBe(202);
    }
    if (event.kind === 'tool_result' && callId !== undefined && event.payload.call_id === callId) {
      taken.push(String(event.payload.preview));
      expect((await call(`/v1/jobs/${jobId}/cancel`, {})).status).toBe(202);
    }
  });
}

test(`answering ask_user from inside the stream handler is never refused (${ROUNDS} jobs)`, async () => {
  const reactions: Reaction[] = [];
  const taken: string[] = [];
  await rounds(() =>
    untilTaken(
      'Write hello.md that greets the reader #ask',
      'ask_user',
      async (jobId, event) => {
        const status = await statusOf(jobId);
        const resumed = await call(`/v1/jobs/${jobId}/resume`, { call_id: event.payload.call_id, answer: 'friendly' });
        return { status, acted: resumed.status, body: await resumed.text() };
      },
      reactions,
      taken,
    ),
  );
  expect(reactions.filter((r) => r.acted !== 200).map((r) => r.body)).toEqual([]);
  expect(paused(reactions)).toEqual(Array<string>(ROUNDS).fill('paused 200'));
  expect(taken).toEqual(Array<string>(ROUNDS).fill('friendly'));
}, 300_000);

test(`deciding an approval from inside the stream handler finds the job paused (${ROUNDS} jobs)`, async () => {
  const reactions: Reaction[] = [];
  const taken: string[] = [];
  await rounds(() =>
    untilTaken(
      'Write hello.md that greets the reader #approve',
      'approval_requested',
      async (jobId, event) => {
        const status = await statusOf(jobId);
        const decided = await call(`/v1/approvals/${String(event.payload.approval_id)}/decide`, {
          decision: 'approve',
        });
        return { status, acted: decided.status, body: await decided.text() };
      },
      reactions,
      taken,
    ),
  );
  expect(reactions.filter((r) => r.acted !== 200).map((r) => r.body)).toEqual([]);
  expect(paused(reactions)).toEqual(Array<string>(ROUNDS).fill('paused 200'));
  expect(taken).toEqual(Array<string>(ROUNDS).fill('approved'));
}, 300_000);

test(`completing a human task from inside the stream handler finds the job paused (${ROUNDS} releases)`, async () => {
  const reactions: Reaction[] = [];
  const deployed: string[] = [];
  await rounds(async (round) => {
    // A job row for the release to pause, held by no job workflow (which would move its status on its own).
    const jobId = `job-race-${round}-${Date.now()}`;
    const workflowId = `wf-race-${round}-${Date.now()}`;
    const promptId = `pt-race-${round}-${Date.now()}`;
    await infra.db.pool.query(
      "INSERT INTO workflows (workflow_id, created_by, org_id) VALUES ($1, 'dev', 'org-test')",
      [workflowId],
    );
    await infra.db.pool.query(
      "INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ($1, $2, 'release', 'dev')",
      [promptId, workflowId],
    );
    await infra.db.pool.query(
      `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue)
       VALUES ($1, $2, $3, 'running', 'dev', 'org-test', $4)`,
      [jobId, workflowId, promptId, keel.taskQueue],
    );
    await fs.mkdir(path.join(keel.workspaceRoot, jobId, 'dist'), { recursive: true });
    await fs.writeFile(path.join(keel.workspaceRoot, jobId, 'dist', 'index.html'), '<title>Race</title>');
    // No token until the task is done: the release assigns the task, and deploys once it is completed. The token
    // file is shared, so these rounds run one at a time.
    const tokenFile = path.join(secretsDir, 'VERCEL_TOKEN');
    await fs.rm(tokenFile, { force: true });
    const release = await infra.temporal.client.workflow.start<typeof runProductRelease>('runProductRelease', {
      workflowId: `${jobId}/L2.release_manager/1`,
      taskQueue: keel.taskQueue,
      args: [
        {
          ids: { job_id: jobId, workflow_id: workflowId, prompt_id: promptId },
          template: { id: 'static-page', build: '', test: '', publish: 'dist', feature: '' },
          deploy: 'auto',
          name: `race-${round}`,
        },
      ],
    });
    await follow(
      jobId,
      async (event) => {
        if (event.kind !== 'human_task_assigned') return;
        const status = await statusOf(jobId);
        await fs.writeFile(tokenFile, `${vercel.token}\n`);
        const completed = await call(`/v1/human-tasks/${String(event.payload.task_id)}/complete`, {});
        reactions.push({ status, acted: completed.status, body: await completed.text() });
      },
      (event) => event.kind === 'node_finished',
    );
    deployed.push((await release.result()).url ?? 'not deployed');
  }, 1);
  expect(reactions.filter((r) => r.acted !== 200).map((r) => r.body)).toEqual([]);
  expect(paused(reactions)).toEqual(Array<string>(ROUNDS).fill('paused 200'));
  expect(deployed.filter((url) => !url.startsWith('https://'))).toEqual([]);
});
