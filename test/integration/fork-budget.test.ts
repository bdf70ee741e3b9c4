import type { EventEnvelope } from '../../events/envelope';
import { eventually } from './eventually';
import { eventsUntil } from './job-events';
import { runJobToEnd, startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/*
 * A fork's own budget (issue 33 item 4, docs/fork-and-compare.md): `budget_usd` of POST /v1/jobs/:id/fork is the
 * fork's ceiling instead of its source's, under the same rules as POST /v1/chat's (refused above the deployment's
 * maximum), and a fork reaching it pauses on its budget like any job (docs/budgets.md). Over HTTP, against the real
 * Temporal dev server and the offline demo model, whose `#cost=<usd>` makes each call cost that much.
 */
let infra: Infrastructure;
let keel: KeelUnderTest;
// Nine calls at $0.25: $2.25, within the deployment's default ceiling of $5.
const PROMPT = 'Write a.md #cost=0.25';
let source: { jobId: string; events: EventEnvelope[] };

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel({ ...infra, jobBudgetUsd: 5, jobBudgetMaxUsd: 50 });
  await keel.startWorker();
  source = await runJobToEnd(keel, PROMPT);
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

async function api(path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${keel.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const kinds = (events: EventEnvelope[], kind: string) => events.filter((e) => e.kind === kind);
const levelIds = (events: EventEnvelope[]) => kinds(events, 'level_finished').map((e) => String(e.payload.level_id));
const forkCount = async () =>
  Number(
    (
      await infra.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM job_forks WHERE source_job_id = $1', [
        source.jobId,
      ])
    ).rows[0]!.n,
  );

test('a fork with a budget of its own runs under it: it pauses on it like any job, its source ran under $5', async () => {
  expect(source.events.at(-1)!.kind).toBe('final');
  expect(kinds(source.events, 'budget_consumed').at(-1)!.payload.limit_usd).toBe(5);
  const first = levelIds(source.events)[0]!;

  // After the team lead's run ($0.25, carried), the fork's own calls at $0.25 each: the third would pass $0.50.
  const res = await api(`/v1/jobs/${source.jobId}/fork`, { from: { level_run_id: first }, budget_usd: 0.5 });
  expect(res.status).toBe(202);
  const forkId = res.json.job_id as string;
  const events = await eventsUntil(keel, forkId, (e) => kinds(e, 'ask_user').length >= 1);
  const exceeded = kinds(events, 'budget_exceeded');
  expect(exceeded).toHaveLength(1);
  expect(exceeded[0]!.payload).toMatchObject({ scope: 'job', limit_usd: 0.5, estimate_usd: 0.25 });
  // Every level told the fork's ceiling, the carried one included.
  const consumed = kinds(events, 'budget_consumed');
  expect(consumed.length).toBeGreaterThan(0);
  expect(consumed.every((e) => e.payload.limit_usd === 0.5)).toBe(true);
  const callId = exceeded[0]!.payload.call_id as string;
  await eventually(
    async () => {
      const view = (await api(`/v1/jobs/${forkId}`)).json as { status: string };
      return view.status === 'paused' ? view : undefined;
    },
    { what: `fork ${forkId} paused on its budget` },
  );

  // Its submitter stops it: the fork ends on its budget; the source is untouched.
  expect((await api(`/v1/jobs/${forkId}/resume`, { call_id: callId, answer: 'stop' })).status).toBe(200);
  const all = await eventsUntil(keel, forkId, () => false);
  expect(all.at(-1)).toMatchObject({ kind: 'error', payload: { code: 'budget_exceeded' } });
  expect((await api(`/v1/jobs/${source.jobId}`)).json.status).toBe('completed');
});

test("a fork without budget_usd keeps its source's ceiling", async () => {
  const last = levelIds(source.events).at(-1)!;
  const res = await api(`/v1/jobs/${source.jobId}/fork`, { from: { level_run_id: last } });
  expect(res.status).toBe(202);
  const events = await eventsUntil(keel, res.json.job_id as string, () => false);
  expect(events.at(-1)!.kind).toBe('final');
  expect(kinds(events, 'budget_consumed').at(-1)!.payload.limit_usd).toBe(5);
});

test("budget_usd above the deployment's maximum is refused as POST /v1/chat refuses it, and nothing is created", async () => {
  const before = await forkCount();
  const chat = await api('/v1/chat', { prompt: PROMPT, budget_usd: 51 });
  const fork = await api(`/v1/jobs/${source.jobId}/fork`, { from: { sequence: 0 }, budget_usd: 51 });
  expect(chat.status).toBe(400);
  expect(fork.status).toBe(chat.status);
  expect(fork.json).toEqual({
    error: { code: 'budget_above_maximum', message: expect.stringContaining('maximum job budget of 50 USD') as string },
  });
  expect((chat.json.error as { code: string }).code).toBe('budget_above_maximum');
  // Not a positive number: the body's shape is refused.
  for (const bad of [0, -1, '2']) {
    const refused = await api(`/v1/jobs/${source.jobId}/fork`, { from: { sequence: 0 }, budget_usd: bad });
    expect(refused.status).toBe(400);
    expect((refused.json.error as { code: string }).code).toBe('invalid_request');
  }
  expect(await forkCount()).toBe(before);
});
