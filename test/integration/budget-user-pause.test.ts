import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import type { User } from '../../db/users';
import { startConsoleStack, type ConsoleStack } from './console-bff-harness';
import { eventually } from './eventually';

/*
 * A user's own monthly budget binds each model call of their running jobs, not only their submissions (docs/budgets.md):
 * with the identity service on a database of its own, a member whose budget is $1.00 submits a job whose demo calls
 * cost $0.25 each. After four calls the fifth would pass the member's budget: the job pauses with a `user` budget
 * decision; an admin raises the budget in the identity service, the member answers `retry`, and the job goes on from
 * that call to the end, every call settled once.
 */
let stack: ConsoleStack;
let member: User;
let admin: User;
const cookies: Record<'member' | 'admin', string> = { member: '', admin: '' };

beforeAll(async () => {
  stack = await startConsoleStack();
  member = await stack.createUser({ email: 'member@example.test' });
  admin = await stack.createUser({ email: 'admin@example.test', role: 'admin' });
  cookies.member = await stack.signIn(member.email);
  cookies.admin = await stack.signIn(admin.email);
  await stack.startWorker();
});

afterAll(async () => {
  await stack?.close();
});

interface Body {
  job_id: string;
  status: string;
  cost_usd: number;
  reservations: { calls: number; settled_usd: number; open_usd: number };
  pending: { questions: Array<{ call_id: string; question: string; choices?: string[] }> | null } | null;
  spentCents: number;
  overBudget: boolean;
}

async function asUser(who: keyof typeof cookies, path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${stack.consoleUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      cookie: cookies[who],
      origin: stack.consoleUrl,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

async function eventsOf(jobId: string, done: (events: EventEnvelope[]) => boolean): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  const controller = new AbortController();
  try {
    for await (const event of streamJobEvents({
      baseUrl: stack.keel.baseUrl,
      token: stack.keel.token,
      jobId,
      signal: controller.signal,
    })) {
      events.push(event);
      if (done(events)) break;
    }
  } finally {
    controller.abort();
  }
  return events;
}

test("a member's monthly budget pauses their running job; an admin raises it and `retry` goes on", async () => {
  const lowered = await asUser('admin', `/api/admin/users/${encodeURIComponent(member.id)}`, {
    method: 'PATCH',
    body: { budgetCents: 100 },
  });
  expect(lowered.status).toBe(200);

  const accepted = await asUser('member', '/api/v1/chat', {
    method: 'POST',
    body: { prompt: 'Write a.md #cost=0.25', budget_usd: 10 },
  });
  expect(accepted.status).toBe(202);
  const jobId = accepted.body.job_id;

  const paused = await eventually(
    async () => {
      const res = await asUser('member', `/api/v1/jobs/${jobId}`);
      return res.body.status === 'paused' && (res.body.pending?.questions?.length ?? 0) > 0 && res.body;
    },
    { what: `job ${jobId} to pause on the member's budget`, timeoutMs: 300_000, intervalMs: 250 },
  );
  // Four calls ($1.00) settled; the fifth was not made.
  expect(paused.cost_usd).toBe(1);
  expect(paused.reservations).toMatchObject({ calls: 4, settled_usd: 1, open_usd: 0 });
  const question = paused.pending!.questions![0]!;
  expect(question.question).toContain(`the monthly budget of user ${member.id}`);
  expect(question.choices).toEqual(['retry', 'downgrade to free', 'stop']);

  const exceeded = (await eventsOf(jobId, (e) => e.some((x) => x.kind === 'budget_exceeded'))).find(
    (e) => e.kind === 'budget_exceeded',
  );
  expect(exceeded?.payload).toMatchObject({
    scope: 'user',
    user_id: member.id,
    limit_usd: 1,
    total_usd: 1,
    estimate_usd: 0.25,
    call_id: question.call_id,
  });
  // My budget says the same: the month's spend reached the budget.
  expect((await asUser('member', '/api/me/budget')).body).toMatchObject({ spentCents: 100, overBudget: true });

  // `retry` before the admin acts asks again, with a new question.
  expect(
    (
      await asUser('member', `/api/v1/jobs/${jobId}/resume`, {
        method: 'POST',
        body: { call_id: question.call_id, answer: 'retry' },
      })
    ).status,
  ).toBe(200);
  const again = await eventually(
    async () => {
      const res = await asUser('member', `/api/v1/jobs/${jobId}`);
      const open = res.body.pending?.questions?.[0];
      return res.body.status === 'paused' && open && open.call_id !== question.call_id && open;
    },
    { what: 'the decision to be asked again', timeoutMs: 120_000, intervalMs: 250 },
  );

  // The admin raises the member's budget in the identity service; `retry` reads it again and the job goes on.
  await asUser('admin', `/api/admin/users/${encodeURIComponent(member.id)}`, {
    method: 'PATCH',
    body: { budgetCents: 10_000 },
  });
  const resumed = await asUser('member', `/api/v1/jobs/${jobId}/resume`, {
    method: 'POST',
    body: { call_id: again.call_id, answer: 'retry' },
  });
  expect(resumed.status).toBe(200);
  const done = await eventually(
    async () => {
      const res = await asUser('member', `/api/v1/jobs/${jobId}`);
      return ['completed', 'failed', 'cancelled'].includes(res.body.status) && res.body;
    },
    { what: `job ${jobId} to end`, timeoutMs: 300_000, intervalMs: 250 },
  );
  expect(done.status).toBe('completed');
  expect(done.cost_usd).toBeGreaterThan(1);
  // Every call settled once at $0.25: none was charged twice, none is left reserved.
  expect(done.reservations).toMatchObject({ settled_usd: done.cost_usd, open_usd: 0 });
  expect(done.reservations.calls * 0.25).toBeCloseTo(done.cost_usd, 6);
});
