import type { User } from '../../db/users';
import { startConsoleStack, type ConsoleStack } from './console-bff-harness';
import { eventually } from './eventually';
import { INTERNAL_TOKEN } from './identity-database';

/*
 * One ledger, one set of numbers (docs/budgets.md): real jobs run on the offline demo model, each call costing what
 * the prompt's `#cost=` directive says, with the identity service on a database of its own (it reads spend from the
 * ingest API's ledger routes). A member's spend then reads the same in My budget (identity), the admin's user list
 * (identity), the admin's org and project budgets (ingest API) and the sum of the jobs' cost_usd; and once an admin
 * sets the project's or the org's budget to that spend, the member's next submission through the console is refused
 * 402 naming that budget.
 */
let stack: ConsoleStack;
let member: User;
let admin: User;
const cookies: Record<'member' | 'admin', string> = { member: '', admin: '' };
const ORG = 'org-test';
/** USD per model call: whole cents, so every sum is exact in cents. */
const CALL_COST = 0.05;

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

/** The answers this file reads, as one loose shape: each step reads the fields its route answers. */
interface Body {
  error: { code: string; budget: Record<string, unknown> };
  job_id: string;
  status: string;
  cost_usd: number;
  reservations: { calls: number; reserved_usd: number; settled_usd: number; open_usd: number };
  totals: Body['reservations'];
  calls: Array<{ state: string; reserved_usd: number; settled_usd: number | null }>;
  spentCents: number;
  users: Array<{ id: string; spentCents: number; remainingCents: number | null }>;
  user: Record<string, unknown>;
  org: Record<string, unknown>;
  period_start: string;
  orgs: unknown[];
  projects: unknown[];
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

async function runToEnd(prompt: string): Promise<{ jobId: string; costUsd: number }> {
  const accepted = await asUser('member', '/api/v1/chat', {
    method: 'POST',
    body: { prompt, project_slug: 'site', scenario: 'review' },
  });
  expect(accepted.status).toBe(202);
  const jobId = accepted.body.job_id;
  const job = await eventually(
    async () => {
      const res = await asUser('member', `/api/v1/jobs/${jobId}`);
      return ['completed', 'failed', 'cancelled'].includes(res.body.status) && res.body;
    },
    { what: `job ${jobId} to end`, timeoutMs: 300_000, intervalMs: 250 },
  );
  expect(job.status).toBe('completed');
  // Every call was reserved before it was made and settled after at its cost: the settled sum is the job's cost_usd.
  expect(job.reservations).toMatchObject({ settled_usd: job.cost_usd, open_usd: 0 });
  const perCall = await asUser('member', `/api/v1/jobs/${jobId}/reservations`);
  expect(perCall.status).toBe(200);
  expect(perCall.body.totals).toEqual(job.reservations);
  expect(perCall.body.calls).toHaveLength(job.reservations.calls);
  expect(perCall.body.calls.every((c) => c.state === 'settled' && c.settled_usd === CALL_COST)).toBe(true);
  return { jobId, costUsd: job.cost_usd };
}

test('spend agrees across My budget, the admin views and the jobs, and the budgets it reaches refuse the next job', async () => {
  expect(
    (await asUser('member', '/api/v1/projects', { method: 'POST', body: { name: 'Site', slug: 'site' } })).status,
  ).toBe(201);

  const jobs = await Promise.all([
    runToEnd(`Write a.md #cost=${CALL_COST}`),
    runToEnd(`Write b.md #cost=${CALL_COST}`),
  ]);
  for (const job of jobs) {
    // Every call of the job cost CALL_COST: a whole number of calls, at least one.
    expect(job.costUsd).toBeGreaterThan(0);
    expect(Number.isInteger(Math.round((job.costUsd / CALL_COST) * 1e6) / 1e6)).toBe(true);
  }
  const cents = Math.round(jobs.reduce((sum, job) => sum + job.costUsd, 0) * 100);

  // The identity service's figures come through the ingest API's ledger routes, cached for two seconds.
  const mine = await eventually(
    async () => {
      const res = await asUser('member', '/api/me/budget');
      return res.body.spentCents === cents && res.body;
    },
    { what: 'My budget to show the jobs’ spend', timeoutMs: 30_000, intervalMs: 250 },
  );
  expect(mine).toMatchObject({ spentCents: cents, budgetCents: 2_500, remainingCents: 2_500 - cents });

  const listed = await asUser('admin', '/api/admin/users');
  expect(listed.status).toBe(200);
  const row = listed.body.users.find((u) => u.id === member.id);
  expect(row).toMatchObject({ spentCents: cents, remainingCents: 2_500 - cents });

  // The ingest API's own view of the member's month (the console's My budget page and `keel budget` read it).
  const own = await asUser('member', '/api/v1/me/budgets');
  expect(own.status).toBe(200);
  expect(own.body.user).toEqual({
    exempt: false,
    budget_cents: 2_500,
    spent_cents: cents,
    remaining_cents: 2_500 - cents,
    over_budget: false,
  });
  expect(own.body.org).toMatchObject({ org_id: ORG, spent_cents: cents });

  const budgets = await asUser('admin', `/api/v1/admin/budgets?org=${ORG}`);
  expect(budgets.status).toBe(200);
  expect(budgets.body.orgs).toEqual([
    { org_id: ORG, budget_cents: null, spent_cents: cents, remaining_cents: null, over_budget: false },
  ]);
  expect(budgets.body.projects).toEqual([
    {
      org_id: ORG,
      project_slug: 'site',
      name: 'Site',
      budget_cents: null,
      spent_cents: cents,
      remaining_cents: null,
      over_budget: false,
    },
  ]);

  // The ledger route the identity service reads org and project spend from answers the same.
  const since = encodeURIComponent(budgets.body.period_start);
  const ledger = await fetch(`${stack.keel.baseUrl}/internal/ledger/tenant-spend?since=${since}&org=${ORG}`, {
    headers: { authorization: `Bearer ${INTERNAL_TOKEN}` },
  });
  expect(await ledger.json()).toMatchObject({
    orgs: [{ org_id: ORG, cents }],
    projects: [{ org_id: ORG, project_slug: 'site', cents }],
  });

  // A member may not read or set them.
  expect((await asUser('member', `/api/v1/admin/budgets?org=${ORG}`)).status).toBe(403);

  // The project's budget set to what it spent: the member's next job in it is refused, naming the project.
  const set = await asUser('admin', `/api/v1/admin/budgets/orgs/${ORG}/projects/site`, {
    method: 'PUT',
    body: { budget_cents: cents },
  });
  expect(set.body).toMatchObject({ budget_cents: cents, spent_cents: cents, remaining_cents: 0, over_budget: true });
  const inProject = await asUser('member', '/api/v1/chat', {
    method: 'POST',
    body: { prompt: 'Write c.md', project_slug: 'site' },
  });
  expect(inProject.status).toBe(402);
  expect(inProject.body.error).toMatchObject({
    code: 'over_budget',
    budget: { scope: 'project', org_id: ORG, project_slug: 'site', budget_cents: cents, remaining_cents: 0 },
  });

  // The org's budget likewise, for a job in no project.
  await asUser('admin', `/api/v1/admin/budgets/orgs/${ORG}/projects/site`, {
    method: 'PUT',
    body: { budget_cents: null },
  });
  await asUser('admin', `/api/v1/admin/budgets/orgs/${ORG}`, { method: 'PUT', body: { budget_cents: cents } });
  const inOrg = await asUser('member', '/api/v1/chat', { method: 'POST', body: { prompt: 'Write d.md' } });
  expect(inOrg.status).toBe(402);
  expect(inOrg.body.error).toMatchObject({
    code: 'over_budget',
    budget: { scope: 'org', org_id: ORG, budget_cents: cents, spent_cents: cents, remaining_cents: 0 },
  });
});
