import { streamJobEvents } from '../../cli/event-stream';
import { createToken } from '../../db/tokens';
import type { EventEnvelope } from '../../events/envelope';
import { buildRunGraph } from '../../events/run-graph';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { startGatedModel } from './gated-model';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * The write side of workflows with a worker running: POST /v1/workflows, prompts appended to a running job or
 * starting the next one, the editable agent graph a later job runs, and the archived run graph. LLM calls go to the
 * offline demo model through a gate that records every request and can hold one level's call.
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

/** The fields the tests read, across the replies they read them from. */
interface Body {
  workflow: { workflow_id: string; updated_at: string; created_by: string };
  workflow_id: string;
  prompt_id: string;
  job_id: string;
  delivered: string;
  status: string;
  updated_at: string;
  version: number;
  order: string[];
  prompts: Array<{ job_id: string; delivered: string }>;
  error: { code: string; message: string };
}

interface Reply {
  status: number;
  body: Body;
}

async function call(method: string, path: string, body?: unknown, token = keel.token): Promise<Reply> {
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

async function follow(jobId: string): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  return events;
}

const kinds = (events: EventEnvelope[], kind: string) => events.filter((e) => e.kind === kind);

describe('POST /v1/workflows', () => {
  test('creates the workflow with its first prompt thread and job; every job and prompt bumps updated_at', async () => {
    // A workflow is filed under a project that exists (an unknown slug is refused, test/integration/api-input).
    expect((await call('POST', '/v1/projects', { name: 'Docs', slug: 'docs' })).status).toBe(201);
    const created = await call('POST', '/v1/workflows', {
      prompt: 'Write notes.md with one line',
      project_slug: 'docs',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      workflow: {
        workflow_id: expect.stringMatching(/^wf-\d+$/) as string,
        project_slug: 'docs',
        created_by: 'dev',
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/) as string,
        hidden: false,
        status: 'queued',
        latest_job_id: created.body.job_id,
        scenario: 'build',
        // The first prompt's first line until the owner renames it; the job has not started or cost anything yet.
        title: 'Write notes.md with one line',
        title_set: false,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/) as string,
        started_at: null,
        finished_at: null,
        cost_usd: 0,
        follow_up_policy: null,
      },
      prompt_id: expect.stringMatching(/^pt-\d+$/) as string,
      job_id: expect.stringMatching(/^job-/) as string,
    });
    const workflowId = created.body.workflow.workflow_id;
    const events = await follow(created.body.job_id);
    expect(events.at(-1)!.kind).toBe('final');

    const after = await call('GET', `/v1/workflows/${workflowId}`);
    expect(after.body.status).toBe('completed');
    expect(after.body.updated_at > created.body.workflow.updated_at).toBe(true);
    expect((await call('GET', `/v1/workflows/${workflowId}/prompts`)).body).toEqual({
      workflow_id: workflowId,
      prompts: [
        {
          prompt_id: created.body.prompt_id,
          workflow_id: workflowId,
          prompt: 'Write notes.md with one line',
          created_by: 'dev',
          created_at: expect.any(String) as string,
          job_id: created.body.job_id,
          delivered: 'new_job',
        },
      ],
    });

    // No job runs now, so a new prompt starts the workflow's next job.
    const next = await call('POST', `/v1/workflows/${workflowId}/prompts`, { prompt: 'Now add a second line' });
    expect(next.status).toBe(202);
    expect(next.body).toMatchObject({ workflow_id: workflowId, delivered: 'new_job' });
    expect(next.body.job_id).not.toBe(created.body.job_id);
    expect((await call('GET', `/v1/workflows/${workflowId}`)).body.updated_at > after.body.updated_at).toBe(true);
    expect((await follow(next.body.job_id)).at(-1)!.kind).toBe('final');
    const prompts = (await call('GET', `/v1/workflows/${workflowId}/prompts`)).body.prompts as Array<{
      job_id: string;
    }>;
    expect(prompts.map((p) => p.job_id)).toEqual([created.body.job_id, next.body.job_id]);
  });

  test('created_by falls back to the literal `user` for a token without a user', async () => {
    const { token } = await createToken(infra.db.pool, { userId: '', orgId: 'org-anon', isAdmin: false });
    const created = await call('POST', '/v1/workflows', { prompt: 'What is 2+2?' }, token);
    expect(created.status).toBe(201);
    expect(created.body.workflow.created_by).toBe('user');
    await follow(created.body.job_id);
  });

  test('bad input is a 400 with nothing stored', async () => {
    const count = async () =>
      (await infra.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM workflows')).rows[0]!.n;
    const before = await count();
    for (const body of [
      {},
      { prompt: '   ' },
      { prompt: 'x', workflow_id: 'wf-1' },
      { prompt: 'x', scenario: 'Bad Name' },
    ]) {
      const reply = await call('POST', '/v1/workflows', body);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('invalid_request');
    }
    expect(await count()).toBe(before);
  });
});

describe('a prompt appended while a job runs', () => {
  test('reaches the running job, which folds it into the context of the levels after it', async () => {
    const held = gate.hold('L4.executor');
    const created = await call('POST', '/v1/workflows', { prompt: 'Write hello.md saying hello' });
    const jobId = created.body.job_id;
    const workflowId = created.body.workflow.workflow_id;
    await held.reached;

    const appended = await call('POST', `/v1/workflows/${workflowId}/prompts`, { prompt: 'Sign it FOLLOWUP-MARKER' });
    expect(appended.status).toBe(202);
    expect(appended.body).toEqual({
      workflow_id: workflowId,
      prompt_id: expect.stringMatching(/^pt-\d+$/) as string,
      job_id: jobId,
      delivered: 'running_job',
      policy: 'amend',
      after_job_id: null,
    });
    const requestsBefore = gate.requests();
    held.release();
    const events = await follow(jobId);
    expect(events.at(-1)!.kind).toBe('final');

    expect(kinds(events, 'prompt_appended').map((e) => e.payload.prompt_id)).toEqual([appended.body.prompt_id]);
    // The executor's call was already in flight; the calls after it carry the follow-up in their context.
    const later = gate.bodies().slice(requestsBefore);
    const verifier = later.find((body) => body.includes('Keel level: L3.verifier'));
    expect(verifier).toContain(`follow-up prompt ${appended.body.prompt_id} from the user`);
    expect(verifier).toContain('FOLLOWUP-MARKER');
    // Seen by later levels, so no extra pass: build, then its chained review, once each.
    expect(kinds(events, 'scenario_started').map((e) => e.payload.scenario)).toEqual(['build', 'review']);
    const prompts = (await call('GET', `/v1/workflows/${workflowId}/prompts`)).body.prompts as Array<{
      job_id: string;
      delivered: string;
    }>;
    expect(prompts).toEqual([
      expect.objectContaining({ job_id: jobId, delivered: 'new_job' }),
      expect.objectContaining({ job_id: jobId, delivered: 'running_job' }),
    ]);
  });

  test('arriving during the last model call, it makes the job run its scenario once more', async () => {
    // review's verifier is its last model-backed level; the release manager after it is composed in code.
    const held = gate.hold('L3.verifier');
    const created = await call('POST', '/v1/workflows', { prompt: 'Write bye.md saying bye', scenario: 'review' });
    const jobId = created.body.job_id;
    await held.reached;
    const appended = await call('POST', `/v1/workflows/${created.body.workflow.workflow_id}/prompts`, {
      prompt: 'Also say thanks LATE-MARKER',
    });
    expect(appended.body.delivered).toBe('running_job');
    held.release();
    const events = await follow(jobId);
    expect(events.at(-1)!.kind).toBe('final');
    expect(kinds(events, 'scenario_started').map((e) => e.payload.scenario)).toEqual(['review', 'review']);
    expect(kinds(events, 'scenario_chained').map((e) => e.payload)).toEqual([
      { from: 'review', to: 'review', follow_up_prompts: [appended.body.prompt_id] },
    ]);
  });
});

describe('the agent graph', () => {
  let workflowId: string;

  beforeAll(async () => {
    const created = await call('POST', '/v1/workflows', { prompt: 'Write a.md with the letter a' });
    workflowId = created.body.workflow.workflow_id;
    await follow(created.body.job_id);
  });

  const edit = (path: string, body: unknown) => call('POST', `/v1/workflows/${workflowId}/${path}`, body);

  test('starts as the scenario file: its levels in order, version 0', async () => {
    const graph = await call('GET', `/v1/workflows/${workflowId}/graph`);
    expect(graph.body).toMatchObject({
      version: 0,
      scenario: 'build',
      order: ['L1.team_lead', 'L2.architect', 'L4.executor', 'L3.verifier'],
      chain: { scenario: 'review' },
    });
  });

  test.each([
    ['edges', { from: 'L2.ghost', to: 'L4.executor' }, 400, 'unknown_agent'],
    ['edges', { from: 'L1.team_lead', to: 'L2.architect' }, 409, 'duplicate_edge'],
    ['edges', { from: 'L3.verifier', to: 'L1.team_lead' }, 409, 'cycle'],
    ['edges/delete', { from: 'L1.team_lead', to: 'L3.verifier' }, 404, 'edge_not_found'],
    ['edge-prompt', { from: 'L3.verifier', to: 'L4.executor', prompt: 'x' }, 404, 'edge_not_found'],
    ['agents', { agent: { role: 'L2.architect', prompt: 'p', tools: ['write_file'] } }, 400, 'invalid_request'],
    ['agents', { agent: { role: 'architect', prompt: 'p' } }, 400, 'invalid_request'],
    ['edges', { from: 'L1.team_lead' }, 400, 'invalid_request'],
  ])('POST %s %j is refused with %i %s and changes nothing', async (path, body, status, code) => {
    const reply = await edit(path, body);
    expect(reply.status).toBe(status);
    expect(reply.body.error.code).toBe(code);
    expect((await call('GET', `/v1/workflows/${workflowId}/graph`)).body.version).toBe(0);
  });

  test('the next job runs the edited graph, edge prompt included', async () => {
    const added = await edit('agents', {
      agent: {
        role: 'L2.security_lead',
        prompt: 'You are the security lead. List one risk of the plan in one line.\n\nRequest:\n{{request}}',
      },
      version: 0,
    });
    expect(added.status).toBe(200);
    expect(added.body.version).toBe(1);
    expect((await edit('edges', { from: 'L2.architect', to: 'L2.security_lead', version: 1 })).status).toBe(200);
    expect(
      (await edit('edges', { from: 'L2.security_lead', to: 'L4.executor', prompt: 'Mind the risk EDGE-MARKER.' })).body
        .order,
    ).toEqual(['L1.team_lead', 'L2.architect', 'L2.security_lead', 'L4.executor', 'L3.verifier']);
    // A client that edits from a stale version is told so instead of overwriting.
    const stale = await edit('edges/delete', { from: 'L2.architect', to: 'L4.executor', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('version_conflict');

    const before = gate.requests();
    const next = await call('POST', `/v1/workflows/${workflowId}/prompts`, {
      prompt: 'Write b.md with the letter b #security-block=1',
    });
    expect(next.body.delivered).toBe('new_job');
    const events = await follow(next.body.job_id);
    expect(events.at(-1)!.kind).toBe('final');
    expect(kinds(events, 'scenario_started')[0]!.payload).toEqual({
      scenario: `${workflowId}-graph`,
      levels: ['L1.team_lead', 'L2.architect', 'L2.security_lead', 'L4.executor', 'L3.verifier'],
    });
    const executorCall = gate
      .bodies()
      .slice(before)
      .find((body) => body.includes('Keel level: L4.executor'));
    expect(executorCall).toContain('Note from L2.security_lead: Mind the risk EDGE-MARKER.');
    // A security lead in any scenario also reviews the verified result; its blocking finding went back to the executor.
    const gates = kinds(events, 'gate_decision').map((e) => e.payload);
    expect(gates[0]).toMatchObject({ decision: 'retry', reviewer: 'L2.security_lead', to: 'L4.executor' });
    expect(gates[1]).toMatchObject({ decision: 'pass', reviewed_by: ['L2.security_lead'] });
  });
});

describe('GET /v1/workflows/:id/run-graph', () => {
  test("is the finished job's levels, attempts, verdicts, models and timings, as its events tell", async () => {
    const created = await call('POST', '/v1/workflows', { prompt: 'Write c.md with the letter c #verify-fail=1' });
    const workflowId = created.body.workflow.workflow_id;
    const events = await follow(created.body.job_id);
    const reply = await call('GET', `/v1/workflows/${workflowId}/run-graph`);
    expect(reply.status).toBe(200);
    const graph = reply.body as unknown as ReturnType<typeof buildRunGraph>;
    // Archived just before `final`, so only its finish time differs from a graph of the whole stream.
    expect({ ...graph, finished_at: null }).toEqual({ ...buildRunGraph(events), finished_at: null });
    expect(graph.finished_at! <= events.at(-1)!.occurred_at).toBe(true);

    const started = kinds(events, 'level_started');
    expect(graph.levels.map((l) => l.level_id)).toEqual(started.map((e) => e.payload.level_id));
    const finished = kinds(events, 'level_finished');
    expect(graph.levels.map((l) => [l.role, l.attempt, l.ok, l.duration_ms])).toEqual(
      finished.map((e) => [e.agent_role, e.payload.attempt, e.payload.ok, e.payload.duration_ms]),
    );
    expect(graph.status).toBe('completed');
    // One failed verification: the executor ran twice, and the second run came back as a retry.
    expect(graph.levels.filter((l) => l.role === 'L3.verifier').map((l) => l.verdict)).toEqual([
      'fail',
      'pass',
      'pass',
    ]);
    expect(graph.edges.filter((e) => e.kind === 'retry')).toEqual([
      {
        from: `${created.body.job_id}/L3.verifier/1`,
        to: `${created.body.job_id}/L4.executor/2`,
        kind: 'retry',
      },
    ]);
    expect(graph.levels.find((l) => l.role === 'L4.executor')).toMatchObject({
      provider: 'demo',
      model: expect.any(String) as string,
    });
  });

  test('is 409 while the only job runs and 404 for an unknown job', async () => {
    const held = gate.hold('L1.team_lead');
    const created = await call('POST', '/v1/workflows', { prompt: 'Write d.md' });
    const workflowId = created.body.workflow.workflow_id;
    await held.reached;
    const running = await call('GET', `/v1/workflows/${workflowId}/run-graph`);
    expect(running.status).toBe(409);
    expect(running.body.error.code).toBe('workflow_running');
    held.release();
    await follow(created.body.job_id);
    expect((await call('GET', `/v1/workflows/${workflowId}/run-graph?job_id=job-nope`)).status).toBe(404);
    expect((await call('GET', `/v1/workflows/${workflowId}/run-graph?job_id=${created.body.job_id}`)).status).toBe(200);
  });
});
