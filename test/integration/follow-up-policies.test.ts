import { streamJobEvents } from '../../cli/event-stream';
import { runFollowUp, runPrompt } from '../../cli/follow-up-commands';
import type { EventEnvelope } from '../../events/envelope';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { startGatedModel } from './gated-model';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * Follow-up policies (docs/follow-up-policies.md): what a prompt does while a job of its workflow has not finished.
 * Under each policy two prompts race (sent at once, neither awaited before the other is sent) and the pair of answers
 * is the same every time: decisions are taken one at a time per workflow, so the second prompt always sees the job the
 * first one reached or started. Which of the two prompts is "first" is up to the race; the tests assert the answers as
 * a pair, never their order. A level's model call is held (the gated model) so the job they race against is running.
 */
let infra: Infrastructure;
let keel: KeelUnderTest;
let demo: DemoModelServer;
let gate: Awaited<ReturnType<typeof startGatedModel>>;

beforeAll(async () => {
  infra = await startInfrastructure();
  demo = await startDemoModelServer();
  gate = await startGatedModel({ upstream: demo.baseUrl });
  keel = await startKeel({ ...infra, demoBaseUrl: gate.baseUrl });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await gate?.close();
  await demo?.close();
  await infra?.close();
});

interface Accepted {
  workflow_id: string;
  prompt_id: string;
  job_id: string;
  delivered: string;
  policy: string;
  after_job_id: string | null;
}

interface Reply {
  status: number;
  body: Accepted & {
    workflow: { workflow_id: string; follow_up_policy: string | null };
    follow_up_policy: string | null;
    status: string;
    error: { code: string; message: string; job_id?: string };
  };
}

async function call(method: string, path: string, body?: unknown): Promise<Reply> {
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${keel.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Reply['body'] };
}

async function follow(jobId: string): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  return events;
}

const applied = (events: EventEnvelope[]) => events.filter((e) => e.kind === 'follow_up_applied').map((e) => e.payload);

/** Two prompts sent at once to the workflow. */
function race(workflowId: string, first: object, second: object): Promise<[Reply, Reply]> {
  const post = (body: object) => call('POST', `/v1/workflows/${workflowId}/prompts`, body);
  return Promise.all([post(first), post(second)]);
}

/** A workflow whose first job is held at its executor's model call (the job is `running`). */
async function heldWorkflow(settings: object = {}) {
  const held = gate.hold('L4.executor');
  const created = await call('POST', '/v1/workflows', { prompt: 'Write notes.md with one line', ...settings });
  expect(created.status).toBe(201);
  await held.reached;
  return { workflowId: created.body.workflow.workflow_id, jobId: created.body.job_id, held };
}

async function jobRow(jobId: string) {
  const { rows } = await infra.db.pool.query<{
    status: string;
    started_at: Date | null;
    finished_at: Date | null;
    error: { code?: string } | null;
    follow_up_policy: string | null;
    follows_job_id: string | null;
  }>(
    'SELECT status, started_at, finished_at, error, follow_up_policy, follows_job_id FROM job_runs WHERE job_id = $1',
    [jobId],
  );
  return rows[0]!;
}

describe('the policy setting', () => {
  test('is set at creation and by PATCH, shown on the workflow, and an unknown policy is a 400', async () => {
    const created = await call('POST', '/v1/workflows', { prompt: 'What is 2+2?', follow_up_policy: 'enqueue' });
    expect(created.status).toBe(201);
    expect(created.body.workflow.follow_up_policy).toBe('enqueue');
    const workflowId = created.body.workflow.workflow_id;
    await follow(created.body.job_id);

    const patched = await call('PATCH', `/v1/workflows/${workflowId}`, { follow_up_policy: 'reject' });
    expect(patched.status).toBe(200);
    expect(patched.body.follow_up_policy).toBe('reject');
    expect((await call('GET', `/v1/workflows/${workflowId}`)).body.follow_up_policy).toBe('reject');
    const cleared = await call('PATCH', `/v1/workflows/${workflowId}`, { follow_up_policy: null });
    expect(cleared.body.follow_up_policy).toBeNull();

    for (const [path, method, body] of [
      [`/v1/workflows/${workflowId}/prompts`, 'POST', { prompt: 'x', follow_up: 'later' }],
      [`/v1/workflows/${workflowId}`, 'PATCH', { follow_up_policy: 'queue' }],
      [`/v1/workflows/${workflowId}`, 'PATCH', {}],
      ['/v1/workflows', 'POST', { prompt: 'x', follow_up_policy: 'sometimes' }],
    ] as const) {
      const reply = await call(method, path, body);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('invalid_request');
    }
  });
});

describe('the keel CLI', () => {
  test('`keel follow-up` sets the policy and `keel prompt` is decided by it', async () => {
    const target = { baseUrl: keel.baseUrl, token: keel.token, source: 'test' };
    const { workflowId, jobId, held } = await heldWorkflow();
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const err = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await runFollowUp(target, [workflowId, 'enqueue'])).toBe(0);
      expect(log).toHaveBeenLastCalledWith(`${workflowId}\tfollow-up policy: enqueue`);
      expect((await call('GET', `/v1/workflows/${workflowId}`)).body.follow_up_policy).toBe('enqueue');
      expect(await runPrompt(target, [workflowId, 'Write c.md saying c'])).toBe(0);
      expect(err).toHaveBeenLastCalledWith(expect.stringContaining(`started a job that runs after ${jobId}`));
      const queued = String(log.mock.lastCall![0]);
      await expect(runPrompt(target, [workflowId, 'x', '--follow-up', 'reject'])).rejects.toThrow(/409 job_running/);
      await expect(runFollowUp(target, [workflowId, 'sometimes'])).rejects.toThrow('one of amend, enqueue');
      expect(await runFollowUp(target, [workflowId, 'none'])).toBe(0);
      expect(log).toHaveBeenLastCalledWith(`${workflowId}\tfollow-up policy: none`);
      held.release();
      expect((await follow(queued)).at(-1)!.kind).toBe('final');
    } finally {
      log.mockRestore();
      err.mockRestore();
    }
  });
});

describe('two prompts racing', () => {
  test('amend: both join the running job, which records the policy for each', async () => {
    const { workflowId, jobId, held } = await heldWorkflow({ follow_up_policy: 'amend' });
    const [a, b] = await race(workflowId, { prompt: 'Sign it AMEND-A' }, { prompt: 'Date it AMEND-B' });
    for (const reply of [a, b]) {
      expect(reply.status).toBe(202);
      expect(reply.body).toMatchObject({
        job_id: jobId,
        delivered: 'running_job',
        policy: 'amend',
        after_job_id: null,
      });
    }
    held.release();
    const events = await follow(jobId);
    expect(events.at(-1)!.kind).toBe('final');
    expect(applied(events).sort((x, y) => String(x.prompt_id).localeCompare(String(y.prompt_id)))).toEqual(
      [a.body.prompt_id, b.body.prompt_id].sort().map((promptId) => ({
        policy: 'amend',
        prompt_id: promptId,
        delivered: 'running_job',
      })),
    );
  });

  test('amend with no job running: the first starts a job and the second joins it', async () => {
    const created = await call('POST', '/v1/workflows', { prompt: 'What is 2+2?' });
    await follow(created.body.job_id);
    const held = gate.hold('L4.executor');
    const [a, b] = await race(
      created.body.workflow.workflow_id,
      { prompt: 'Write a.md saying a' },
      { prompt: 'Write b.md saying b' },
    );
    expect([a.status, b.status]).toEqual([202, 202]);
    const started = [a, b].find((r) => r.body.delivered === 'new_job')!;
    const joined = [a, b].find((r) => r.body.delivered === 'running_job')!;
    expect(joined.body.job_id).toBe(started.body.job_id);
    await held.reached;
    held.release();
    const events = await follow(started.body.job_id);
    expect(events.at(-1)!.kind).toBe('final');
    // The joined prompt may be recorded before the job's own start record: it can arrive before the job runs.
    expect(
      applied(events)
        .map((p) => p.delivered)
        .sort(),
    ).toEqual(['new_job', 'running_job']);
  });

  test('reject: both are refused with 409 job_running naming the running job, which records both', async () => {
    const { workflowId, jobId, held } = await heldWorkflow({ follow_up_policy: 'reject' });
    const before = await infra.db.pool.query('SELECT 1 FROM prompt_threads WHERE workflow_id = $1', [workflowId]);
    const [a, b] = await race(workflowId, { prompt: 'Also this' }, { prompt: 'And that' });
    for (const reply of [a, b]) {
      expect(reply.status).toBe(409);
      expect(reply.body.error).toMatchObject({ code: 'job_running', job_id: jobId });
      expect(reply.body.error.message).toContain(jobId);
    }
    const after = await infra.db.pool.query('SELECT 1 FROM prompt_threads WHERE workflow_id = $1', [workflowId]);
    expect(after.rowCount).toBe(before.rowCount);
    held.release();
    const events = await follow(jobId);
    expect(events.at(-1)!.kind).toBe('final');
    expect(applied(events)).toEqual([
      { policy: 'reject', delivered: 'rejected' },
      { policy: 'reject', delivered: 'rejected' },
    ]);
  });

  test('reject with no job running: the first starts a job, the second is refused naming it', async () => {
    const created = await call('POST', '/v1/workflows', { prompt: 'What is 2+2?', follow_up_policy: 'reject' });
    await follow(created.body.job_id);
    const held = gate.hold('L4.executor');
    const [a, b] = await race(created.body.workflow.workflow_id, { prompt: 'Write a.md' }, { prompt: 'Write b.md' });
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    const started = [a, b].find((r) => r.status === 202)!;
    const refused = [a, b].find((r) => r.status === 409)!;
    expect(started.body).toMatchObject({ delivered: 'new_job', policy: 'reject', after_job_id: null });
    expect(refused.body.error).toMatchObject({ code: 'job_running', job_id: started.body.job_id });
    await held.reached;
    held.release();
    expect((await follow(started.body.job_id)).at(-1)!.kind).toBe('final');
  });

  test('enqueue (per prompt): both are accepted as jobs that run one after the other, in order', async () => {
    const { workflowId, jobId, held } = await heldWorkflow();
    const [a, b] = await race(
      workflowId,
      { prompt: 'Write a.md saying a', follow_up: 'enqueue' },
      { prompt: 'Write b.md saying b', follow_up: 'enqueue' },
    );
    expect([a.status, b.status]).toEqual([202, 202]);
    for (const reply of [a, b]) expect(reply.body).toMatchObject({ delivered: 'new_job', policy: 'enqueue' });
    // One waits for the running job, the other for that one: a chain, whichever prompt came first.
    const second = [a, b].find((r) => r.body.after_job_id === jobId)!;
    const third = [a, b].find((r) => r.body.after_job_id === second.body.job_id)!;
    expect(third).toBeDefined();
    expect((await jobRow(second.body.job_id)).status).toBe('queued');
    expect((await jobRow(third.body.job_id)).status).toBe('queued');
    expect((await call('GET', `/v1/workflows/${workflowId}/prompts`)).body).toMatchObject({
      prompts: [{ job_id: jobId }, { job_id: second.body.job_id }, { job_id: third.body.job_id }],
    });

    held.release();
    for (const id of [jobId, second.body.job_id, third.body.job_id]) {
      expect((await follow(id)).at(-1)!.kind).toBe('final');
    }
    const [one, two, three] = await Promise.all([jobId, second.body.job_id, third.body.job_id].map(jobRow));
    expect(two!.started_at!.getTime()).toBeGreaterThanOrEqual(one!.finished_at!.getTime());
    expect(three!.started_at!.getTime()).toBeGreaterThanOrEqual(two!.finished_at!.getTime());
    expect(two).toMatchObject({ follow_up_policy: 'enqueue', follows_job_id: jobId });
    expect(applied(await follow(third.body.job_id))).toEqual([
      {
        policy: 'enqueue',
        prompt_id: third.body.prompt_id,
        delivered: 'new_job',
        after_job_id: second.body.job_id,
      },
    ]);
  });

  test('interrupt: the first stops the running job at its next level boundary and starts one carrying its workspace; the second joins that one', async () => {
    const { workflowId, jobId, held } = await heldWorkflow({ follow_up_policy: 'interrupt' });
    const [a, b] = await race(workflowId, { prompt: 'Rather write INT-A' }, { prompt: 'And sign it INT-B' });
    expect([a.status, b.status]).toEqual([202, 202]);
    const next = [a, b].find((r) => r.body.delivered === 'new_job')!;
    const joined = [a, b].find((r) => r.body.delivered === 'running_job')!;
    expect(next.body).toMatchObject({ policy: 'interrupt', after_job_id: jobId });
    // The new job has not started (it waits for the interrupted one to stop), so there is nothing of it to interrupt.
    expect(joined.body).toMatchObject({ policy: 'interrupt', job_id: next.body.job_id, after_job_id: null });

    held.release();
    const interrupted = await follow(jobId);
    // The executor's level finished; the verifier after it never started.
    expect(interrupted.at(-1)).toMatchObject({ kind: 'error', payload: { code: 'interrupted' } });
    expect(interrupted.filter((e) => e.kind === 'level_started').map((e) => e.payload.role)).not.toContain(
      'L3.verifier',
    );
    expect(applied(interrupted)).toEqual([
      { policy: 'interrupt', prompt_id: next.body.prompt_id, delivered: 'interrupted', next_job_id: next.body.job_id },
    ]);
    expect(await jobRow(jobId)).toMatchObject({ status: 'cancelled', error: { code: 'interrupted' } });

    const carried = await follow(next.body.job_id);
    expect(carried.at(-1)!.kind).toBe('final');
    const { rows } = await infra.db.pool.query<{ manifest_sha256: string }>(
      'SELECT manifest_sha256 FROM level_run_snapshots WHERE job_id = $1 ORDER BY seq DESC LIMIT 1',
      [jobId],
    );
    expect(rows[0]?.manifest_sha256).toEqual(expect.any(String));
    // The joined prompt reached the new job while it waited, so its record may come first.
    expect(applied(carried)).toHaveLength(2);
    expect(applied(carried)).toEqual(
      expect.arrayContaining([
        {
          policy: 'interrupt',
          prompt_id: next.body.prompt_id,
          delivered: 'new_job',
          after_job_id: jobId,
          carried_manifest_sha256: rows[0]!.manifest_sha256,
        },
        { policy: 'interrupt', prompt_id: joined.body.prompt_id, delivered: 'running_job' },
      ]),
    );
    expect((await jobRow(next.body.job_id)).started_at!.getTime()).toBeGreaterThanOrEqual(
      (await jobRow(jobId)).finished_at!.getTime(),
    );
  });
});
