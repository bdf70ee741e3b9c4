import { sharedDatabasePeople } from '../../approvals/escalation-people';
import { migrateIdentity } from '../../auth/migrate';
import { streamJobEvents } from '../../cli/event-stream';
import { identityTables } from '../../db/qualified-tables';
import { insertUser } from '../../db/users';
import { createToken } from '../../db/tokens';
import type { EventEnvelope } from '../../events/envelope';
import { uniqueSuffix } from './env';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * Approval policies and reminders (docs/approval-policies.md, docs/reminders.md) on the real stack: jobs run by a
 * worker against the offline demo model, whose `#approve` directive makes its L2 level call `request_approval` with the
 * action `write <path>`, and whose `#ask` makes it ask a question. The reminder schedule is in seconds, so the
 * workflow's durable timers fire within the test; the test waits on the events, never on a clock.
 */

let infra: Infrastructure;
let keel: KeelUnderTest;
const suffix = uniqueSuffix();
const org = 'org-test';

const identitySchema = `id_${suffix}`;
const identity = identityTables(identitySchema);

beforeAll(async () => {
  infra = await startInfrastructure();
  // The identity service's users in this database (the all-in-one stack's shape): who an escalation names.
  await migrateIdentity(infra.db.pool, identitySchema);
  keel = await startKeel({ ...infra, people: sharedDatabasePeople({ pool: infra.db.pool, tables: identity }) });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.db.pool.query(`DROP SCHEMA IF EXISTS "${identitySchema}" CASCADE`);
  await infra?.close();
});

interface ApiResponse {
  status: number;
  body: unknown;
}

async function call(
  path: string,
  options: { method?: string; json?: unknown; token?: string } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? keel.token}` };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${keel.baseUrl}${path}`, {
    method: options.method ?? (options.json === undefined ? 'GET' : 'POST'),
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : null;
  return { status: response.status, body };
}

/** A project of this file's own, with `policy` set through the admin API. */
async function projectWith(name: string, policy: unknown): Promise<string> {
  const slug = `${name}-${suffix}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
  expect((await call('/v1/projects', { json: { name, slug } })).status).toBe(201);
  const set = await call(`/v1/admin/approval-policies/orgs/${org}/projects/${slug}`, {
    method: 'PUT',
    json: { policy },
  });
  expect(set.status).toBe(200);
  return slug;
}

async function submit(prompt: string, project: string): Promise<string> {
  const response = await call('/v1/chat', { json: { prompt, project_slug: project } });
  expect(response.status).toBe(202);
  return (response.body as { job_id: string }).job_id;
}

/** Reads the job's stream to its end, calling `onEvent` as each event arrives. */
async function follow(jobId: string, onEvent: (event: EventEnvelope) => Promise<void> = async () => {}) {
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
    events.push(event);
    await onEvent(event);
  }
  return events;
}

const PEOPLE_KINDS = new Set(['approval_requested', 'approval_decided', 'reminder_sent', 'escalated', 'timed_out']);
/** The events of the wait for a person, with what a reader of each relies on. */
const waitStory = (events: EventEnvelope[]) =>
  events
    .filter((e) => PEOPLE_KINDS.has(e.kind) || (e.kind === 'tool_result' && String(e.payload.call_id).length > 0))
    .filter(
      (e) =>
        e.kind !== 'tool_result' ||
        events.some(
          (q) =>
            q.kind === 'tool_call' &&
            q.payload.call_id === e.payload.call_id &&
            ['request_approval', 'ask_user'].includes(String(q.payload.name)),
        ),
    )
    .map((e) => {
      const p = e.payload;
      switch (e.kind) {
        case 'approval_decided':
          return `approval_decided ${String(p.decision)} by ${String(p.decided_by)}`;
        case 'escalated':
          return `escalated to ${String(p.to)}`;
        case 'timed_out':
          return `timed_out ${String(p.decision ?? p.answer)}`;
        case 'tool_result':
          return `tool_result ${String(p.preview)}`;
        default:
          return e.kind;
      }
    });

const docsPolicy = {
  rules: [
    { id: 'no-prod', when: { actions: ['deploy*production*'] }, decide: 'reject' },
    { id: 'cheap-docs', when: { max_cost_usd: 1, paths_under: ['docs/'] }, decide: 'approve' },
  ],
};

describe('approval policies', () => {
  let project: string;
  beforeAll(async () => {
    project = await projectWith('Docs site', docsPolicy);
  });

  test('a request the policy matches is approved by its rule: no person is asked, the rule is on the record', async () => {
    const jobId = await submit('Write docs/hello.md that greets the reader #approve', project);
    const events = await follow(jobId);

    expect(waitStory(events)).toEqual([
      'approval_decided approve by policy:cheap-docs',
      "tool_result approved by the project's approval policy (rule cheap-docs)",
    ]);
    expect(events.at(-1)?.kind).toBe('final');
    const decided = events.find((e) => e.kind === 'approval_decided')!;
    expect(decided.payload).toMatchObject({ rule_id: 'cheap-docs', action: 'write docs/hello.md' });

    const approval = await call(`/v1/approvals/${String(decided.payload.approval_id)}`);
    expect(approval.body).toMatchObject({
      status: 'approved',
      decided_by: 'policy:cheap-docs',
      request: {
        action: 'write docs/hello.md',
        paths: ['docs/hello.md'],
        cost_usd: expect.any(Number) as number,
        branch: null,
      },
    });
    expect(approval.body).toMatchObject({ decided_at: expect.any(String) as string });
  }, 120_000);

  test('a request no rule matches goes to a person, whose decision is the record', async () => {
    const jobId = await submit('Write src/hello.md that greets the reader #approve', project);
    let pending: ApiResponse | undefined;
    const events = await follow(jobId, async (event) => {
      if (event.kind !== 'approval_requested') return;
      pending = await call(`/v1/approvals/${String(event.payload.approval_id)}`);
      expect(
        (await call(`/v1/approvals/${String(event.payload.approval_id)}/decide`, { json: { decision: 'approve' } }))
          .status,
      ).toBe(200);
    });

    expect(pending?.body).toMatchObject({ status: 'pending', request: { paths: ['src/hello.md'] } });
    expect(waitStory(events)).toEqual([
      'approval_requested',
      'approval_decided approve by dev',
      'tool_result approved',
    ]);
    expect(events.at(-1)?.kind).toBe('final');
  }, 120_000);

  test('the dry run says what a policy would have decided for the last approvals', async () => {
    // The two approvals above, newest first: src/ went to a person, docs/ was the rule's.
    const stored = await call(`/v1/admin/approval-policies/orgs/${org}/projects/${project}/dry-run`, {
      json: { last: 2 },
    });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ evaluated: 2, would_approve: 1, would_reject: 0, to_a_person: 1 });
    expect(
      (stored.body as { approvals: Array<{ action: string; would: unknown }> }).approvals.map((a) => [
        a.action,
        a.would,
      ]),
    ).toEqual([
      ['write src/hello.md', null],
      ['write docs/hello.md', { decision: 'approve', rule_id: 'cheap-docs' }],
    ]);

    // A policy sent as YAML, tried before it is stored: this one would reject both.
    const tried = await call(`/v1/admin/approval-policies/orgs/${org}/projects/${project}/dry-run`, {
      json: {
        last: 2,
        policy_yaml: 'rules:\n  - id: nothing-written\n    when: { actions: ["write *"] }\n    decide: reject\n',
      },
    });
    expect(tried.body).toMatchObject({ evaluated: 2, would_approve: 0, would_reject: 2, to_a_person: 0 });
  });
});

describe('the policy API', () => {
  test('lists, reads and removes policies; refuses a bad one with 400 invalid_policy and a non-admin with 403', async () => {
    const slug = await projectWith('Api checks', { rules: [{ id: 'all', decide: 'approve' }] });
    const path = `/v1/admin/approval-policies/orgs/${org}/projects/${slug}`;
    expect((await call(path)).body).toMatchObject({
      project_slug: slug,
      policy: { rules: [{ id: 'all', decide: 'approve', when: {} }] },
      updated_by: 'dev',
    });
    const listed = await call(`/v1/admin/approval-policies?org=${org}`);
    expect(
      (listed.body as { policies: Array<{ project_slug: string }> }).policies.map((p) => p.project_slug),
    ).toContain(slug);

    const bad = await call(path, {
      method: 'PUT',
      json: { policy: { rules: [{ id: 'x', when: { max_cost: 1 }, decide: 'approve' }] } },
    });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_policy' } } });
    const badYaml = await call(path, { method: 'PUT', json: { policy_yaml: 'rules: [' } });
    expect(badYaml).toMatchObject({ status: 400, body: { error: { code: 'invalid_policy' } } });
    const missing = await call(`/v1/admin/approval-policies/orgs/${org}/projects/no-such-${suffix}`, {
      method: 'PUT',
      json: { policy: { rules: [] } },
    });
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });

    const { token } = await createToken(infra.db.pool, { userId: `member-${suffix}`, orgId: org, isAdmin: false });
    expect(await call(path, { token })).toMatchObject({ status: 403, body: { error: { code: 'admin_only' } } });

    expect((await call(path, { method: 'DELETE' })).status).toBe(204);
    expect((await call(path)).status).toBe(404);
  });
  test("keeps every change of a project's policy: who, when, the document and the YAML as written, newest first", async () => {
    const slug = await projectWith('History', { rules: [{ id: 'all', decide: 'approve' }] });
    const path = `/v1/admin/approval-policies/orgs/${org}/projects/${slug}`;
    const yaml = '# docs only\nrules:\n  - id: docs\n    when: { paths_under: [docs/] }\n    decide: approve\n';
    const { token: other } = await createToken(infra.db.pool, { userId: `admin-${suffix}`, orgId: org, isAdmin: true });
    expect((await call(path, { method: 'PUT', json: { policy_yaml: yaml }, token: other })).status).toBe(200);
    // A refused change is no change.
    expect((await call(path, { method: 'PUT', json: { policy_yaml: 'rules: [{ id: Bad }]' } })).status).toBe(400);
    // The current policy reads back as the admin wrote it.
    expect((await call(path)).body).toMatchObject({ policy_yaml: yaml, updated_by: `admin-${suffix}` });
    expect((await call(path, { method: 'DELETE' })).status).toBe(204);

    const history = await call(`${path}/history`);
    expect(history.status).toBe(200);
    const changes = (history.body as { changes: Array<Record<string, unknown>> }).changes;
    expect(changes).toMatchObject([
      { change: 'removed', policy: null, policy_yaml: null, changed_by: 'dev' },
      {
        change: 'set',
        policy: { rules: [{ id: 'docs', when: { paths_under: ['docs'] }, decide: 'approve' }] },
        policy_yaml: yaml,
        changed_by: `admin-${suffix}`,
      },
      // Sent as JSON: written out as YAML.
      { change: 'set', policy_yaml: expect.stringContaining('id: all') as unknown, changed_by: 'dev' },
    ]);
    const times = changes.map((c) => Date.parse(c.changed_at as string));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    expect((await call(`${path}/history?limit=1`)).body).toMatchObject({ changes: [{ change: 'removed' }] });
    const { token: member } = await createToken(infra.db.pool, { userId: `m2-${suffix}`, orgId: org, isAdmin: false });
    expect(await call(`${path}/history`, { token: member })).toMatchObject({ status: 403 });
    expect(await call(`/v1/admin/approval-policies/orgs/${org}/projects/none-${suffix}/history`)).toMatchObject({
      status: 404,
    });
  });
});

describe('reminders, escalation and timeout', () => {
  test('an unanswered approval is reminded, escalated, then times out with the decided default', async () => {
    const project = await projectWith('Slow approvers', {
      rules: [],
      reminders: {
        remind_after_seconds: 1,
        escalate_after_seconds: 2,
        escalate_to: 'role:release-managers',
        timeout_after_seconds: 3,
        timeout_decision: 'reject',
      },
    });
    const jobId = await submit('Write src/hello.md that greets the reader #approve', project);
    const events = await follow(jobId);

    expect(waitStory(events)).toEqual([
      'approval_requested',
      'reminder_sent',
      'escalated to role:release-managers',
      'timed_out reject',
      'approval_decided reject by timeout',
      'tool_result rejected',
    ]);
    const steps = events.filter((e) => ['reminder_sent', 'escalated', 'timed_out'].includes(e.kind));
    expect(steps.map((e) => e.payload.waiting_for)).toEqual(['approval', 'approval', 'approval']);
    // Each step fires at its time or later, never before (the timers are durable workflow timers).
    const waited = steps.map((e) => Number(e.payload.waited_seconds));
    expect(waited[0]).toBeGreaterThanOrEqual(1);
    expect(waited[1]).toBeGreaterThanOrEqual(2);
    expect(waited[2]).toBeGreaterThanOrEqual(3);

    const approval = await call(`/v1/approvals/${String(steps[0]!.payload.approval_id)}`);
    expect(approval.body).toMatchObject({
      status: 'rejected',
      decided_by: 'timeout',
      escalated_to: 'role:release-managers',
      // Nobody holds that identity role here: the escalation names the role alone.
      escalated_people: [],
    });
    expect(approval.body).toMatchObject({
      reminded_at: expect.any(String) as string,
      escalated_at: expect.any(String) as string,
    });
    // The demo model withdraws the task on a rejection; the job still ends.
    expect(events.at(-1)?.kind).toBe('final');
  }, 120_000);

  test("an escalation to the project's owners names them: the admins, on the event, the approval and in words", async () => {
    const user = (email: string, role: 'admin' | 'user', banned = false) =>
      insertUser(infra.db.pool, identity, { email, role, banned, banReason: null, budgetCents: null });
    await user(`zoe-${suffix}@example.test`, 'admin');
    await user(`ana-${suffix}@example.test`, 'admin');
    await user(`gone-${suffix}@example.test`, 'admin', true);
    await user(`member-${suffix}@example.test`, 'user');
    const project = await projectWith('Owned project', {
      reminders: {
        escalate_after_seconds: 1,
        escalate_to: 'project_owners',
        timeout_after_seconds: 2,
        timeout_decision: 'reject',
      },
    });
    const jobId = await submit('Write src/owned.md that greets the reader #approve', project);
    const events = await follow(jobId);
    expect(waitStory(events)).toEqual([
      'approval_requested',
      'escalated to project_owners',
      'timed_out reject',
      'approval_decided reject by timeout',
      'tool_result rejected',
    ]);
    const escalated = events.find((e) => e.kind === 'escalated')!;
    const owners = [`ana-${suffix}@example.test`, `zoe-${suffix}@example.test`];
    // The enabled admins, by email; not the disabled admin, not a member.
    expect((escalated.payload.people as Array<{ email: string }>).map((p) => p.email)).toEqual(owners);
    const approval = await call(`/v1/approvals/${String(escalated.payload.approval_id)}`);
    expect(approval.body).toMatchObject({ escalated_to: 'project_owners' });
    expect(
      (approval.body as { escalated_people: Array<{ email: string }> }).escalated_people.map((p) => p.email),
    ).toEqual(owners);
  }, 120_000);

  test('an answer before the timeout ends the wait: no later step, and the person decided', async () => {
    const project = await projectWith('Quick approvers', {
      reminders: { remind_after_seconds: 1, timeout_after_seconds: 600, timeout_decision: 'reject' },
    });
    const jobId = await submit('Write src/hello.md that greets the reader #approve', project);
    const events = await follow(jobId, async (event) => {
      if (event.kind !== 'reminder_sent') return;
      const decided = await call(`/v1/approvals/${String(event.payload.approval_id)}/decide`, {
        json: { decision: 'approve' },
      });
      expect(decided.status).toBe(200);
    });
    expect(waitStory(events)).toEqual([
      'approval_requested',
      'reminder_sent',
      'approval_decided approve by dev',
      'tool_result approved',
    ]);
  }, 120_000);

  test('an unanswered question times out with its default answer', async () => {
    const project = await projectWith('Quiet people', {
      reminders: { remind_after_seconds: 1, timeout_after_seconds: 2, timeout_answer: 'formal' },
    });
    const jobId = await submit('Write src/hello.md that greets the reader #ask', project);
    const events = await follow(jobId);
    expect(waitStory(events)).toEqual(['reminder_sent', 'timed_out formal', 'tool_result formal']);
    expect(events.find((e) => e.kind === 'timed_out')?.payload).toMatchObject({
      waiting_for: 'ask_user',
      answer: 'formal',
    });
    expect(events.at(-1)?.kind).toBe('final');
  }, 120_000);
});
