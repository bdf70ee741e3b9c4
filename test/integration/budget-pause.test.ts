import type { EventEnvelope } from '../../events/envelope';
import { eventually } from './eventually';
import { eventsUntil } from './job-events';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/*
 * A job that reaches its budget pauses for its submitter's decision instead of failing (issue 36 item 1,
 * docs/budgets.md), against the real Temporal dev server and the offline demo model, whose `#cost=<usd>` makes each of
 * its calls cost that much (and is what Keel estimates for it). Every call is reserved before and settled after; the
 * decision is an ask_user question with choices, answered through POST /v1/jobs/:id/resume like any other.
 */
let infra: Infrastructure;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel({ ...infra, jobBudgetUsd: 5, jobBudgetMaxUsd: 50 });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

interface JobView {
  status: string;
  cost_usd: number;
  pending: { questions: Array<{ call_id: string; role: string; question: string; choices?: string[] }> | null } | null;
}

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

async function submit(prompt: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { status, json } = await api('/v1/chat', { prompt, ...extra });
  expect(status).toBe(202);
  return json.job_id as string;
}

const job = async (jobId: string) => (await api(`/v1/jobs/${jobId}`)).json as unknown as JobView;

/** Waits for the job's `n`th budget decision and for GET /v1/jobs/:id to list it: the job is paused on it. */
async function nthPause(jobId: string, n: number) {
  const events = await eventsUntil(keel, jobId, (e) => e.filter((x) => x.kind === 'ask_user').length >= n);
  const exceeded = events.filter((e) => e.kind === 'budget_exceeded');
  expect(exceeded).toHaveLength(n);
  const callId = exceeded[n - 1]!.payload.call_id as string;
  const view = await eventually(
    async () => {
      const v = await job(jobId);
      return v.status === 'paused' && v.pending?.questions?.some((q) => q.call_id === callId) ? v : undefined;
    },
    { what: `job ${jobId} paused on its budget decision ${callId}` },
  );
  return { events, exceeded: exceeded[n - 1]!, callId, view };
}

const resume = (jobId: string, callId: string, answer: string) =>
  api(`/v1/jobs/${jobId}/resume`, { call_id: callId, answer });

async function reservations(jobId: string) {
  const { rows } = await infra.db.pool.query<{
    reservation_id: string;
    state: string;
    reserved: string;
    settled: string;
  }>(
    `SELECT reservation_id, state, reserved_usd AS reserved, settled_usd AS settled
       FROM budget_reservations WHERE job_id = $1 ORDER BY created_at`,
    [jobId],
  );
  return rows;
}

const kinds = (events: EventEnvelope[], kind: string) => events.filter((e) => e.kind === kind);

test('pause → raise → the job resumes at the call it paused at: no level re-run, each call charged once', async () => {
  // Each call costs $0.25 and is estimated at that: the fifth call would take the job past $1.00.
  const jobId = await submit('Write a.md #cost=0.25', { budget_usd: 1 });
  const { exceeded, callId, view, events: before } = await nthPause(jobId, 1);

  expect(exceeded.payload).toMatchObject({
    scope: 'job',
    limit_usd: 1,
    total_usd: 1,
    estimate_usd: 0.25,
    settled_usd: 1,
    reserved_usd: 0,
    choices: ['raise by $1.25', 'downgrade to free', 'stop'],
  });
  const question = view.pending!.questions!.find((q) => q.call_id === callId)!;
  expect(question.choices).toEqual(['raise by $1.25', 'downgrade to free', 'stop']);
  expect(view.cost_usd).toBe(1);
  const pausedLevel = exceeded.payload.level_id as string;
  // Reserved and settled so far: four calls, each reserved at its estimate and settled at its cost.
  expect(kinds(before, 'prompt_sent').map((e) => e.payload.reserved_usd)).toEqual([0.25, 0.25, 0.25, 0.25]);
  expect((await reservations(jobId)).map((r) => [r.state, Number(r.reserved), Number(r.settled)])).toEqual(
    Array(4).fill(['settled', 0.25, 0.25]),
  );

  // An answer that is none of the decision's is refused at once, and the job still waits.
  const wrong = await resume(jobId, callId, 'maybe later');
  expect(wrong.status).toBe(400);
  expect(wrong.json).toMatchObject({ error: { code: 'invalid_budget_decision' } });
  expect((await job(jobId)).status).toBe('paused');

  expect((await resume(jobId, callId, 'raise by $5')).status).toBe(200);
  const events = await eventsUntil(keel, jobId, () => false);
  expect(events.at(-1)).toMatchObject({ kind: 'final' });

  // The level that paused ran once, and every level run started once.
  const started = kinds(events, 'node_started').map((e) => e.payload.level_id as string);
  expect(new Set(started).size).toBe(started.length);
  expect(started.filter((id) => id === pausedLevel)).toHaveLength(1);
  // Each call was reserved once and settled once, at what it cost: the job's cost is the calls', no more.
  const calls = kinds(events, 'prompt_sent').length;
  const rows = await reservations(jobId);
  expect(rows).toHaveLength(calls);
  expect(rows.every((r) => r.state === 'settled' && Number(r.settled) === 0.25)).toBe(true);
  const done = await job(jobId);
  expect(done.status).toBe('completed');
  expect(done.cost_usd).toBeCloseTo(calls * 0.25, 6);
  expect(events.at(-1)!.payload.cost_usd).toBeCloseTo(calls * 0.25, 6);
  // The stream says what was decided, as the question's result.
  expect(kinds(events, 'tool_result').find((e) => e.payload.call_id === callId)?.payload.preview).toBe(
    "budget decision: raise by $5.00: the job's ceiling is now $6.00",
  );
  // The later levels were told the raised ceiling: $1 + $5.
  expect(kinds(events, 'budget_consumed').at(-1)!.payload.limit_usd).toBe(6);
  // The decision is audited: who answered what.
  const { rows: answers } = await infra.db.pool.query<{ answer: string; answered_by: string }>(
    'SELECT answer, answered_by FROM question_answers WHERE job_id = $1 AND call_id = $2',
    [jobId, callId],
  );
  expect(answers).toEqual([{ answer: 'raise by $5', answered_by: expect.any(String) as string }]);
});

test('pause → downgrade: the level is routed again on the cheaper tier, and the levels after it stay there', async () => {
  const jobId = await submit('Write b.md #cost=0.25', { budget_usd: 0.5, metadata: { model_tier: 'frontier' } });
  const first = await nthPause(jobId, 1);
  expect(first.exceeded.payload.choices).toEqual(['raise by $0.75', 'downgrade to cheap', 'stop']);
  expect((await resume(jobId, first.callId, 'downgrade to cheap')).status).toBe(200);

  // On the cheaper tier the demo model still costs $0.25 a call: the job pauses again, now offering the next tier.
  const second = await nthPause(jobId, 2);
  expect(second.exceeded.payload.choices).toEqual(['raise by $0.75', 'downgrade to free', 'stop']);
  const pausedLevel = first.exceeded.payload.level_id as string;
  const rerouted = kinds(second.events, 'routing_decision').filter((e) => e.payload.level_id === pausedLevel);
  expect(rerouted).toHaveLength(2);
  expect(rerouted[1]!.payload.band).toEqual(['cheap']);
  expect((await resume(jobId, second.callId, 'raise by $5')).status).toBe(200);

  const events = await eventsUntil(keel, jobId, () => false);
  expect(events.at(-1)).toMatchObject({ kind: 'final' });
  // Every level after the downgrade was routed on the cheap band.
  const later = kinds(events, 'routing_decision').filter((e) => e.sequence > second.exceeded.sequence);
  expect(later.length).toBeGreaterThan(0);
  expect(later.every((e) => JSON.stringify(e.payload.band) === JSON.stringify(['cheap']))).toBe(true);
  expect((await job(jobId)).status).toBe('completed');
});

test('pause → stop: the job ends cancelled with error budget_exceeded, and nothing stays reserved', async () => {
  const jobId = await submit('Write c.md #cost=0.3', { budget_usd: 0.5 });
  const { callId } = await nthPause(jobId, 1);
  expect((await resume(jobId, callId, 'stop')).status).toBe(200);

  const events = await eventsUntil(keel, jobId, () => false);
  expect(events.at(-1)).toMatchObject({
    kind: 'error',
    payload: { code: 'budget_exceeded', retryable: false },
  });
  expect(events.at(-1)!.payload.message).toMatch(/stopped at the budget decision/);
  const done = await eventually(
    async () => {
      const v = await job(jobId);
      return v.status === 'cancelled' ? v : undefined;
    },
    { what: 'the stopped job recorded as cancelled' },
  );
  // One call of $0.30 was made and charged; the one that did not fit was never reserved.
  expect(done.cost_usd).toBeCloseTo(0.3, 6);
  expect((await reservations(jobId)).map((r) => r.state)).toEqual(['settled']);
  // A stopped job takes no more answers.
  expect((await resume(jobId, callId, 'raise')).status).toBe(409);
});

test("an org's monthly budget pauses a running job too; an admin raises it and `retry` goes on", async () => {
  const org = 'org-test';
  const put = (cents: number | null) =>
    fetch(`${keel.baseUrl}/v1/admin/budgets/orgs/${org}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ budget_cents: cents }),
    });
  const { rows } = await infra.db.pool.query<{ cents: string }>(
    `SELECT CEIL(COALESCE(SUM(cost_usd), 0) * 100)::bigint AS cents FROM job_runs WHERE org_id = $1`,
    [org],
  );
  const spent = Number(rows[0]!.cents);
  // Room for two calls of $0.40 this month, not three.
  expect((await put(spent + 100)).status).toBe(200);
  try {
    const jobId = await submit('Write d.md #cost=0.4');
    const { exceeded, callId } = await nthPause(jobId, 1);
    expect(exceeded.payload).toMatchObject({
      scope: 'org',
      org_id: org,
      choices: ['retry', 'downgrade to free', 'stop'],
    });
    expect((await resume(jobId, callId, 'raise by $5')).status).toBe(400);
    expect((await put(null)).status).toBe(200);
    expect((await resume(jobId, callId, 'retry')).status).toBe(200);
    const events = await eventsUntil(keel, jobId, () => false);
    expect(events.at(-1)).toMatchObject({ kind: 'final' });
  } finally {
    await put(null);
  }
});
