import { createSecretStore } from '../../secrets/store';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startFakeVercel, type FakeVercel } from '../fakes/fake-vercel';
import { DEFAULT_BUILD_LIMITS } from '../../products/build-runner';
import type { runProductRelease } from '../../workflows/product-build';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { eventually } from './eventually';

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

const call = (url: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${keel.baseUrl}${url}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

interface Task {
  task_id: string;
  title: string;
  assignee: string;
  state: string;
  due_at: string | null;
  completed_by: string | null;
}

async function openTaskOf(jobId: string): Promise<Task> {
  return eventually(
    async () => {
      const { tasks } = (await (await call(`/v1/human-tasks?job_id=${jobId}&state=open`)).json()) as { tasks: Task[] };
      return tasks[0];
    },
    { what: `an open human task of job ${jobId}`, intervalMs: 100 },
  );
}

test('a release without a Vercel token assigns a human task; completing it over the API deploys', async () => {
  // A job row for the task to belong to (any job of this stack), and a built site in its workspace.
  const submitted = (await (await call('/v1/chat', { method: 'POST', body: { prompt: 'Write notes.md' } })).json()) as {
    job_id: string;
    workflow_id: string;
    prompt_id: string;
  };
  const ids = { job_id: submitted.job_id, workflow_id: submitted.workflow_id, prompt_id: submitted.prompt_id };
  await fs.mkdir(path.join(keel.workspaceRoot, ids.job_id, 'dist'), { recursive: true });
  await fs.writeFile(path.join(keel.workspaceRoot, ids.job_id, 'dist', 'index.html'), '<title>Crumb</title>');

  const release = await infra.temporal.client.workflow.start<typeof runProductRelease>('runProductRelease', {
    workflowId: `${ids.job_id}/L2.release_manager/release-test`,
    taskQueue: keel.taskQueue,
    args: [
      {
        ids,
        template: { id: 'static-page', build: '', test: '', publish: 'dist', feature: '' },
        deploy: 'auto',
        name: 'crumb',
      },
    ],
  });

  const task = await openTaskOf(ids.job_id);
  expect(task).toMatchObject({ title: 'Add the Vercel token', assignee: 'dev', state: 'open', completed_by: null });
  expect(task.due_at).not.toBeNull();
  expect(((await (await call(`/v1/human-tasks/${task.task_id}`)).json()) as Task).state).toBe('open');

  await fs.writeFile(path.join(secretsDir, 'VERCEL_TOKEN'), `${vercel.token}\n`);
  const completed = await call(`/v1/human-tasks/${task.task_id}/complete`, {
    method: 'POST',
    body: { note: 'token added' },
  });
  expect(completed.status).toBe(200);
  expect(await completed.json()).toMatchObject({ state: 'done', completed_by: 'dev', note: 'token added' });

  const result = await release.result();
  expect(result.url).toMatch(/^https:\/\/crumb-\w+\.vercel\.app$/);
  const again = await call(`/v1/human-tasks/${task.task_id}/complete`, { method: 'POST', body: {} });
  expect(again.status).toBe(409);

  const { rows } = await infra.db.pool.query<{ kind: string; payload: Record<string, unknown> }>(
    `SELECT kind, envelope->'payload' AS payload FROM job_events
      WHERE job_id = $1 AND agent_role = 'L2.release_manager' ORDER BY sequence`,
    [ids.job_id],
  );
  expect(rows.map((r) => r.kind)).toEqual([
    'node_started',
    'level_started',
    'vercel_deploy_failed',
    'human_task_assigned',
    'ui_action',
    'vercel_deployed',
    'ui_action',
    'level_finished',
    'node_finished',
  ]);
  expect(rows.find((r) => r.kind === 'human_task_assigned')!.payload).toMatchObject({ task_id: task.task_id });
  expect(rows.find((r) => r.kind === 'level_finished')!.payload).not.toHaveProperty('provider');
});

test('an unknown task is 404 and a bad body is 400', async () => {
  expect((await call('/v1/human-tasks/ht-nope')).status).toBe(404);
  expect((await call('/v1/human-tasks/ht-nope/complete', { method: 'POST', body: { note: 1 } })).status).toBe(400);
  expect((await call('/v1/human-tasks?state=sideways')).status).toBe(400);
});
