import crypto from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createApproval, getApproval, type NewApproval } from '../../db/approvals';
import { setJobStatus } from '../../db/jobs';
import { createToken } from '../../db/tokens';
import { uniqueSuffix } from './env';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest, type TestDatabase } from './harness';

/**
 * The approvals endpoints and the resume endpoint over HTTP, on real PostgreSQL and Temporal. No worker runs: jobs are
 * submitted through POST /v1/chat and stay queued, approvals are written with createApproval as the level's activity
 * would. A signal to a queued workflow is still recorded in its history, which is how delivery is checked.
 */

let infra: Infrastructure;
let temporal: TestWorkflowEnvironment;
let db: TestDatabase;
let keel: KeelUnderTest;
const suffix = uniqueSuffix();

beforeAll(async () => {
  infra = await startInfrastructure();
  ({ temporal, db } = infra);
  keel = await startKeel(infra);
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/** `token` defaults to the stack's admin token (user `dev`, org `org-test`). */
async function call(
  path: string,
  options: { method?: string; json?: unknown; rawBody?: string; token?: string } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? keel.token}` };
  const body = options.rawBody ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${keel.baseUrl}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: kept as text so the assertion on the error shape fails with the body in view.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status,
    body: { error: { code, message: expect.any(String) as string } },
  });
}

function decide(approvalId: string, json: unknown, token?: string): Promise<ApiResponse> {
  return call(`/v1/approvals/${approvalId}/decide`, { method: 'POST', json, token });
}

function resume(jobId: string, json: unknown, token?: string): Promise<ApiResponse> {
  return call(`/v1/jobs/${jobId}/resume`, { method: 'POST', json, token });
}

/** A non-admin token of a user of this file's own; returns the token and the ids it stands for. */
async function tokenFor(user: string, org: string) {
  const userId = `${user}-${suffix}`;
  const orgId = `${org}-${suffix}`;
  const { token } = await createToken(db.pool, { userId, orgId, isAdmin: false });
  return { token, userId, orgId };
}

/** A real queued job, submitted over HTTP (its Temporal workflow exists but nothing runs it). */
async function submitJob(token?: string): Promise<{ job_id: string; workflow_id: string }> {
  const response = await call('/v1/chat', { method: 'POST', json: { prompt: 'Deploy the site' }, token });
  expect(response.status).toBe(202);
  return response.body as { job_id: string; workflow_id: string };
}

/** An approval as the level's activity writes it; by default it waits in a workflow that does not exist. */
function newApproval(job: { job_id: string; workflow_id: string }, overrides: Partial<NewApproval> = {}) {
  return createApproval(db.pool, {
    approvalId: `ap-${crypto.randomUUID()}`,
    jobId: job.job_id,
    workflowId: job.workflow_id,
    waitingWorkflowId: `${job.job_id}/L4.executor/1`,
    role: 'L4.executor',
    callId: `call-${crypto.randomUUID()}`,
    action: 'deploy to production',
    reason: 'the user asked for a live site',
    ...overrides,
  });
}

interface ApprovalBody {
  approval_id: string;
  status: string;
  decided_by: string | null;
  decided_at: string | null;
  comment: string | null;
}

function idsOf(response: ApiResponse): string[] {
  return (response.body as { approvals: ApprovalBody[] }).approvals.map((a) => a.approval_id);
}

const unknownApproval = 'ap-00000000-0000-4000-8000-000000000000';
const unknownJob = 'job-00000000-0000-4000-8000-000000000000';

describe('reading approvals', () => {
  test('GET /v1/approvals/:id returns the approval with its public fields only', async () => {
    const job = await submitJob();
    const approval = await newApproval(job);

    const response = await call(`/v1/approvals/${approval.approval_id}`);
    expect(response).toMatchObject({ status: 200 });
    expect(response.body).toEqual({
      approval_id: approval.approval_id,
      job_id: job.job_id,
      workflow_id: job.workflow_id,
      role: 'L4.executor',
      call_id: approval.call_id,
      action: 'deploy to production',
      reason: 'the user asked for a live site',
      status: 'pending',
      decided_by: null,
      decided_at: null,
      comment: null,
      created_at: approval.created_at.toISOString(),
      request: null,
      reminded_at: null,
      escalated_at: null,
      escalated_to: null,
      escalated_people: null,
    });
  });

  test('an unknown approval is 404 not_found', async () => {
    expectError(await call(`/v1/approvals/${unknownApproval}`), 404, 'not_found');
    expectError(await decide(unknownApproval, { decision: 'approve' }), 404, 'not_found');
  });

  test('GET /v1/approvals lists pending and decided approvals newest first, filtered by status, job and workflow', async () => {
    const job = await submitJob();
    const other = await submitJob();
    const first = await newApproval(job);
    const second = await newApproval(job);
    const third = await newApproval(job);
    const elsewhere = await newApproval(other);
    expect((await decide(second.approval_id, { decision: 'approve' })).status).toBe(200);
    expect((await decide(third.approval_id, { decision: 'reject' })).status).toBe(200);

    const forJob = await call(`/v1/approvals?job_id=${job.job_id}`);
    expect(forJob.status).toBe(200);
    expect(idsOf(forJob)).toEqual([third.approval_id, second.approval_id, first.approval_id]);

    expect(idsOf(await call(`/v1/approvals?job_id=${job.job_id}&status=pending`))).toEqual([first.approval_id]);
    expect(idsOf(await call(`/v1/approvals?job_id=${job.job_id}&status=approved`))).toEqual([second.approval_id]);
    expect(idsOf(await call(`/v1/approvals?job_id=${job.job_id}&status=rejected`))).toEqual([third.approval_id]);
    expect(idsOf(await call(`/v1/approvals?workflow_id=${other.workflow_id}`))).toEqual([elsewhere.approval_id]);
    expect(idsOf(await call(`/v1/approvals?job_id=${job.job_id}&limit=2`))).toEqual([
      third.approval_id,
      second.approval_id,
    ]);
    expect(idsOf(await call(`/v1/approvals?job_id=${unknownJob}`))).toEqual([]);

    // Unfiltered, the admin sees every approval, these among them, newest first.
    const all = idsOf(await call('/v1/approvals?limit=100'));
    expect(all.filter((id) => [first, second, third, elsewhere].some((a) => a.approval_id === id))).toEqual([
      elsewhere.approval_id,
      third.approval_id,
      second.approval_id,
      first.approval_id,
    ]);
  });

  test('limit defaults to 20', async () => {
    const job = await submitJob();
    for (let i = 0; i < 21; i++) await newApproval(job);
    expect(idsOf(await call(`/v1/approvals?job_id=${job.job_id}`))).toHaveLength(20);
  });

  test.each([
    ['limit=0', 'limit=0'],
    ['limit=101', 'limit=101'],
    ['a fractional limit', 'limit=2.5'],
    ['a non-numeric limit', 'limit=ten'],
    ['an unknown status', 'status=waiting'],
    ['an empty job_id', 'job_id='],
    ['an unknown filter', 'stauts=pending'],
  ])('GET /v1/approvals with %s is 400 invalid_request', async (_name, query) => {
    expectError(await call(`/v1/approvals?${query}`), 400, 'invalid_request');
  });
});

describe('deciding', () => {
  test('an approval is decided once: the decider and time are recorded, a second decision is 409 approval_decided', async () => {
    const job = await submitJob();
    const approval = await newApproval(job);

    const first = await decide(approval.approval_id, { decision: 'approve', comment: 'go ahead' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      approval_id: approval.approval_id,
      status: 'approved',
      decided_by: 'dev',
      comment: 'go ahead',
      decided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
    });

    expectError(await decide(approval.approval_id, { decision: 'reject' }), 409, 'approval_decided');
    expectError(await decide(approval.approval_id, { decision: 'approve' }), 409, 'approval_decided');
    // The first decision stands untouched.
    expect((await call(`/v1/approvals/${approval.approval_id}`)).body).toEqual(first.body);
  });

  test('a rejection is recorded as rejected, with its comment redacted', async () => {
    const job = await submitJob();
    const approval = await newApproval(job);
    const leaked = 'sk-ant-' + 'a'.repeat(30);

    const response = await decide(approval.approval_id, { decision: 'reject', comment: `not with key ${leaked}` });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'rejected',
      decided_by: 'dev',
      comment: 'not with key [REDACTED:api_key]',
    });
    expect((await getApproval(db.pool, approval.approval_id))?.comment).toBe('not with key [REDACTED:api_key]');
  });

  test('of two concurrent decisions exactly one wins; the other is 409 approval_decided', async () => {
    const job = await submitJob();
    const approval = await newApproval(job);

    const responses = await Promise.all([
      decide(approval.approval_id, { decision: 'approve' }),
      decide(approval.approval_id, { decision: 'reject' }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = responses.find((r) => r.status === 200)!.body as ApprovalBody;
    expect((await getApproval(db.pool, approval.approval_id))?.status).toBe(winner.status);
  });

  test('the decision is signalled to the waiting workflow and lands in its history', async () => {
    const job = await submitJob();
    // The queued job's own workflow stands in for the waiting level: a signal to it is recorded even with no worker.
    const approval = await newApproval(job, { waitingWorkflowId: job.job_id });

    const response = await decide(approval.approval_id, { decision: 'approve', comment: 'ship it' });
    expect(response.status).toBe(200);

    const history = await temporal.client.workflow.getHandle(job.job_id).fetchHistory();
    const signals = (history.events ?? [])
      .map((e) => e.workflowExecutionSignaledEventAttributes)
      .filter((a) => a?.signalName === 'approvalDecision');
    expect(signals).toHaveLength(1);
    const payload = signals[0]!.input!.payloads![0]!.data!;
    expect(JSON.parse(Buffer.from(payload).toString('utf8'))).toEqual({
      approval_id: approval.approval_id,
      decision: 'approve',
      comment: 'ship it',
      decided_by: 'dev',
    });
  });

  test('when the waiting workflow is gone the decision still stands (200)', async () => {
    const job = await submitJob();
    const approval = await newApproval(job, { waitingWorkflowId: `${job.job_id}/gone/1` });

    const response = await decide(approval.approval_id, { decision: 'reject' });
    expect(response).toMatchObject({ status: 200, body: { status: 'rejected' } });
    expect((await getApproval(db.pool, approval.approval_id))?.status).toBe('rejected');
  });

  test.each([
    ['no decision', {}],
    ['an unknown decision', { decision: 'maybe' }],
    ['a capitalised decision', { decision: 'Approve' }],
    ['a numeric comment', { decision: 'approve', comment: 7 }],
    ['a comment over 2,000 characters', { decision: 'approve', comment: 'a'.repeat(2_001) }],
    ['an unknown field', { decision: 'approve', decided_by: 'someone-else' }],
    ['a JSON array body', ['approve']],
  ])('a decision with %s is 400 invalid_request and decides nothing', async (_name, body) => {
    const job = await submitJob();
    const approval = await newApproval(job);
    expectError(await decide(approval.approval_id, body), 400, 'invalid_request');
    expect((await getApproval(db.pool, approval.approval_id))?.status).toBe('pending');
  });

  test('a decision with invalid JSON is 400 invalid_request', async () => {
    const job = await submitJob();
    const approval = await newApproval(job);
    const response = await call(`/v1/approvals/${approval.approval_id}/decide`, {
      method: 'POST',
      rawBody: '{"decision": "approve"',
    });
    expectError(response, 400, 'invalid_request');
  });

  test('createApproval is idempotent: a retried activity neither fails nor resets a decision', async () => {
    const job = await submitJob();
    const approval = await newApproval(job);
    expect((await decide(approval.approval_id, { decision: 'approve' })).status).toBe(200);

    const again = await newApproval(job, { approvalId: approval.approval_id, callId: approval.call_id ?? undefined });
    expect(again).toMatchObject({ approval_id: approval.approval_id, status: 'approved', decided_by: 'dev' });
  });
});

describe('org visibility', () => {
  test("an approval exists only for its job's org and for admins", async () => {
    const member = await tokenFor('member', 'org-a');
    const colleague = await tokenFor('colleague', 'org-a');
    const outsider = await tokenFor('outsider', 'org-b');
    const job = await submitJob(member.token);
    const approval = await newApproval(job);

    expectError(await call(`/v1/approvals/${approval.approval_id}`, { token: outsider.token }), 404, 'not_found');
    expectError(await decide(approval.approval_id, { decision: 'approve' }, outsider.token), 404, 'not_found');
    expect(idsOf(await call(`/v1/approvals?job_id=${job.job_id}`, { token: outsider.token }))).toEqual([]);
    expect(idsOf(await call('/v1/approvals?limit=100', { token: outsider.token }))).toEqual([]);
    expect((await getApproval(db.pool, approval.approval_id))?.status).toBe('pending');

    expect(idsOf(await call(`/v1/approvals?job_id=${job.job_id}`, { token: member.token }))).toEqual([
      approval.approval_id,
    ]);
    expect((await call(`/v1/approvals/${approval.approval_id}`, { token: member.token })).status).toBe(200);
    // Anyone in the org may decide, and is recorded as the decider.
    const decided = await decide(approval.approval_id, { decision: 'approve' }, colleague.token);
    expect(decided).toMatchObject({ status: 200, body: { decided_by: colleague.userId } });
    // The admin (another org) sees it too.
    expect((await call(`/v1/approvals/${approval.approval_id}`)).status).toBe(200);
  });
});

describe('POST /v1/jobs/:id/resume', () => {
  test('an unknown job is 404 not_found', async () => {
    expectError(await resume(unknownJob, { call_id: 'call-1', answer: 'blue' }), 404, 'not_found');
  });

  test("another org's job is 404 not_found", async () => {
    const member = await tokenFor('resume-member', 'org-c');
    const outsider = await tokenFor('resume-outsider', 'org-d');
    const job = await submitJob(member.token);
    expectError(await resume(job.job_id, { call_id: 'call-1', answer: 'blue' }, outsider.token), 404, 'not_found');
  });

  test.each([
    ['no call_id', { answer: 'blue' }],
    ['an empty call_id', { call_id: '', answer: 'blue' }],
    ['no answer', { call_id: 'call-1' }],
    ['an empty answer', { call_id: 'call-1', answer: '' }],
    ['a whitespace-only answer', { call_id: 'call-1', answer: ' \n ' }],
    ['an answer over 10,000 characters', { call_id: 'call-1', answer: 'a'.repeat(10_001) }],
    ['a numeric answer', { call_id: 'call-1', answer: 42 }],
    ['an unknown field', { call_id: 'call-1', answer: 'blue', approve: true }],
  ])('a body with %s is 400 invalid_request', async (_name, body) => {
    const job = await submitJob();
    expectError(await resume(job.job_id, body), 400, 'invalid_request');
  });

  test('a finished job is 409 job_finished', async () => {
    const job = await submitJob();
    await temporal.client.workflow.getHandle(job.job_id).terminate('test: the job is over');
    await setJobStatus(db.pool, job.job_id, 'failed', { error: { code: 'terminated', message: 'terminated' } });
    expectError(await resume(job.job_id, { call_id: 'call-1', answer: 'blue' }), 409, 'job_finished');
  });

  test('a job whose workflow closed before its row caught up is 409 job_finished', async () => {
    const job = await submitJob();
    await temporal.client.workflow.getHandle(job.job_id).terminate('test: the row still says queued');
    expectError(await resume(job.job_id, { call_id: 'call-1', answer: 'blue' }), 409, 'job_finished');
  });
});
