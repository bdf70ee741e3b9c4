import crypto from 'node:crypto';
import { streamJobEvents } from '../../cli/event-stream';
import { answerLinkId, signAnswerLink, verifyAnswerLink } from '../../answer-links/token';
import { createHumanTask } from '../../db/human-tasks';
import type { EventEnvelope } from '../../events/envelope';
import { eventually } from './eventually';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * Answer by link (docs/answer-links.md) on a real stack: the demo model's `#ask` and `#approve` jobs, their events'
 * `answer_url`, and the page a person outside Keel opens, fetched and posted as a browser does (a GET, then a form).
 */

const SECRET = crypto.randomBytes(32).toString('hex');

let infra: Infrastructure;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel({ ...infra, answerLinks: { secret: SECRET } });
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

const api = async (url: string, body?: unknown) => {
  const response = await fetch(`${keel.baseUrl}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

interface Page {
  status: number;
  state: string | null;
  html: string;
  headers: Headers;
}

const read = async (response: Response): Promise<Page> => ({
  status: response.status,
  state: response.headers.get('keel-link-state'),
  html: await response.text(),
  headers: response.headers,
});

/** The page, as a browser opens a link: no credentials of any kind. */
const open = async (url: string) => read(await fetch(url));

/** The page's form, posted as a browser posts it. */
const submitForm = async (url: string, fields: Record<string, string>) =>
  read(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    }),
  );

/** Submits `prompt` and reads the job's stream up to its first `kind` event. */
async function jobAsking(prompt: string, kind: string): Promise<{ jobId: string; event: EventEnvelope }> {
  const submitted = await api('/v1/chat', { prompt });
  expect(submitted.status).toBe(202);
  const jobId = submitted.body.job_id as string;
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
    if (event.kind === kind) return { jobId, event };
    if (event.kind === 'final' || event.kind === 'error') break;
  }
  throw new Error(`job ${jobId} ended without ${kind}`);
}

/** The job's stored events, as every reader (stream, webhooks, chat relay) gets them. */
async function storedEvents(jobId: string): Promise<EventEnvelope[]> {
  const { rows } = await infra.db.pool.query<{ envelope: EventEnvelope }>(
    'SELECT envelope FROM job_events WHERE job_id = $1 ORDER BY sequence',
    [jobId],
  );
  return rows.map((r) => r.envelope);
}

/** The level's tool_result for `callId`: what the job took as the answer. */
async function taken(jobId: string, callId: string): Promise<string> {
  return eventually(
    async () => {
      const result = (await storedEvents(jobId)).find((e) => e.kind === 'tool_result' && e.payload.call_id === callId);
      return result ? String(result.payload.preview) : undefined;
    },
    { what: `the job's tool_result for ${callId}` },
  );
}

async function questionOf(jobId: string, callId: string): Promise<Record<string, unknown> | undefined> {
  const { body } = await api(`/v1/questions?job_id=${jobId}`);
  return (body.questions as Record<string, unknown>[]).find((q) => q.call_id === callId);
}

const cancel = async (jobId: string) => expect((await api(`/v1/jobs/${jobId}/cancel`, {})).status).toBe(202);

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

describe('a question answered by link', () => {
  test('the link opens the question, takes one answer, and refuses a second use naming who answered', async () => {
    const { jobId, event } = await jobAsking('Write a haiku about rivers #ask', 'ask_user');
    const url = event.payload.answer_url as string;
    const callId = event.payload.call_id as string;
    expect(url.startsWith(`${keel.baseUrl}/answer/`)).toBe(true);
    // The stored event carries the same link as the stream (it is minted once, when the event is stored).
    const storedAsk = (await storedEvents(jobId)).find((e) => e.kind === 'ask_user')!;
    expect(storedAsk.payload.answer_url).toBe(url);
    expect(verifyAnswerLink(tokenOf(url), SECRET)).toMatchObject({ job_id: jobId, kind: 'question', target: callId });

    const page = await open(url);
    expect({ status: page.status, state: page.state }).toEqual({ status: 200, state: 'open' });
    expect(page.html).toContain('<form method="post">');
    expect(page.html).toContain('name="answer"');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('set-cookie')).toBeNull();

    const empty = await submitForm(url, { answer: '   ' });
    expect({ status: empty.status, state: empty.state }).toEqual({ status: 400, state: 'open' });

    const first = await submitForm(url, { answer: 'Make it about the Danube' });
    expect({ status: first.status, state: first.state }).toEqual({ status: 200, state: 'answered' });
    expect(await taken(jobId, callId)).toContain('Make it about the Danube');
    const by = `link:${answerLinkId(tokenOf(url))}`;
    expect(await questionOf(jobId, callId)).toMatchObject({ state: 'answered', answered_by: by });

    const second = await submitForm(url, { answer: 'No, the Rhine' });
    expect({ status: second.status, state: second.state }).toEqual({ status: 410, state: 'used' });
    expect(second.html).toContain(`already answered by ${by}`);
    const reopened = await open(url);
    expect({ status: reopened.status, state: reopened.state }).toEqual({ status: 410, state: 'used' });
    // The console and the API say the same: answered, by the link.
    const late = await api(`/v1/jobs/${jobId}/resume`, { call_id: callId, answer: 'too late' });
    expect(late.status).toBe(409);
    expect((late.body.error as { message: string }).message).toContain(`answered by ${by}`);
    await cancel(jobId);
  });

  test('a tampered link is refused (403) and the question stays open for a valid answer', async () => {
    const { jobId, event } = await jobAsking('Name a colour #ask', 'ask_user');
    const url = event.payload.answer_url as string;
    const callId = event.payload.call_id as string;
    const token = tokenOf(url);
    const [claims, signature] = token.split('.') as [string, string];
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === 'A' ? 'B' : 'A'}${signature.at(-1)}`;
    // Another job's id in the claims, with the original signature.
    const otherClaims = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(claims, 'base64url').toString()), t: 'call-someone-else' }),
    ).toString('base64url');
    const forged = signAnswerLink(
      { job_id: jobId, kind: 'question', target: callId, expires_at: Math.floor(Date.now() / 1000) + 3600 },
      'not-this-deployments-secret-0123456789',
    );
    const base = url.slice(0, url.length - token.length);
    for (const bad of [`${claims}.${flipped}`, `${otherClaims}.${signature}`, forged, 'garbage', `${token}.x`]) {
      const page = await open(base + bad);
      expect({ bad, status: page.status, state: page.state }).toEqual({ bad, status: 403, state: 'tampered' });
      const posted = await submitForm(base + bad, { answer: 'sneaky' });
      expect({ bad, status: posted.status, state: posted.state }).toEqual({ bad, status: 403, state: 'tampered' });
      expect(posted.html).toContain('This link is not valid');
    }
    expect(await questionOf(jobId, callId)).toMatchObject({ state: 'open' });
    // The genuine link still works.
    expect((await submitForm(url, { answer: 'teal' })).state).toBe('answered');
    expect(await taken(jobId, callId)).toContain('teal');
    await cancel(jobId);
  });

  test('an expired link is refused (410) and leaves the question open', async () => {
    const { jobId, event } = await jobAsking('Pick a number #ask', 'ask_user');
    const callId = event.payload.call_id as string;
    const url = event.payload.answer_url as string;
    // The same question's link as the deployment would mint it, one that expired a second ago.
    const expired = signAnswerLink(
      { job_id: jobId, kind: 'question', target: callId, expires_at: Math.floor(Date.now() / 1000) - 1 },
      SECRET,
    );
    const expiredUrl = `${keel.baseUrl}/answer/${expired}`;
    const page = await open(expiredUrl);
    expect({ status: page.status, state: page.state }).toEqual({ status: 410, state: 'expired' });
    expect(page.html).toContain('This link has expired');
    const posted = await submitForm(expiredUrl, { answer: '7' });
    expect({ status: posted.status, state: posted.state }).toEqual({ status: 410, state: 'expired' });
    expect(await questionOf(jobId, callId)).toMatchObject({ state: 'open' });
    // The event's own link (an hour's TTL here) is still good.
    expect((await open(url)).state).toBe('open');
    await cancel(jobId);
  });

  test('answered in the console first: the link then shows who answered, and takes nothing', async () => {
    const { jobId, event } = await jobAsking('Choose a tree #ask', 'ask_user');
    const url = event.payload.answer_url as string;
    const callId = event.payload.call_id as string;
    expect((await api(`/v1/jobs/${jobId}/resume`, { call_id: callId, answer: 'oak' })).status).toBe(200);
    const page = await open(url);
    expect({ status: page.status, state: page.state }).toEqual({ status: 410, state: 'used' });
    expect(page.html).toContain('already answered by dev');
    const posted = await submitForm(url, { answer: 'birch' });
    expect({ status: posted.status, state: posted.state }).toEqual({ status: 410, state: 'used' });
    expect(await taken(jobId, callId)).toContain('oak');
    expect(await questionOf(jobId, callId)).toMatchObject({ answer: 'oak', answered_by: 'dev' });
    await cancel(jobId);
  });

  test('a link raced against the API: exactly one answer is taken and the loser is told who answered', async () => {
    for (let round = 0; round < 3; round++) {
      const { jobId, event } = await jobAsking(`Choose a fruit, round ${round} #ask`, 'ask_user');
      const url = event.payload.answer_url as string;
      const callId = event.payload.call_id as string;
      const by = `link:${answerLinkId(tokenOf(url))}`;
      const [viaLink, viaApi] = await Promise.all([
        submitForm(url, { answer: 'apple from the link' }),
        api(`/v1/jobs/${jobId}/resume`, { call_id: callId, answer: 'pear from the console' }),
      ]);
      const linkWon = viaLink.state === 'answered';
      const apiWon = viaApi.status === 200;
      expect({ round, winners: [linkWon, apiWon].filter(Boolean).length }).toEqual({ round, winners: 1 });
      if (linkWon) {
        expect(viaApi.status).toBe(409);
        expect((viaApi.body.error as { message: string }).message).toContain(`answered by ${by}`);
      } else {
        expect({ status: viaLink.status, state: viaLink.state }).toEqual({ status: 410, state: 'used' });
        expect(viaLink.html).toContain('already answered by dev');
      }
      const answer = await taken(jobId, callId);
      expect(answer).toContain(linkWon ? 'apple from the link' : 'pear from the console');
      expect(await questionOf(jobId, callId)).toMatchObject({ answered_by: linkWon ? by : 'dev' });
      await cancel(jobId);
    }
  });
});

describe('an approval decided by link', () => {
  test('approve by link once; the approval records the link; a second use and the API are refused naming it', async () => {
    const { jobId, event } = await jobAsking('Deploy the docs site #approve', 'approval_requested');
    const url = event.payload.answer_url as string;
    const approvalId = event.payload.approval_id as string;
    const by = `link:${answerLinkId(tokenOf(url))}`;

    const page = await open(url);
    expect({ status: page.status, state: page.state }).toEqual({ status: 200, state: 'open' });
    expect(page.html).toContain('value="approve"');
    const missing = await submitForm(url, { comment: 'no decision' });
    expect({ status: missing.status, state: missing.state }).toEqual({ status: 400, state: 'open' });

    const decided = await submitForm(url, { decision: 'approve', comment: 'fine by me' });
    expect({ status: decided.status, state: decided.state }).toEqual({ status: 200, state: 'answered' });
    const approval = await api(`/v1/approvals/${approvalId}`);
    expect(approval.body).toMatchObject({ status: 'approved', decided_by: by, comment: 'fine by me' });

    const again = await submitForm(url, { decision: 'reject' });
    expect({ status: again.status, state: again.state }).toEqual({ status: 410, state: 'used' });
    expect(again.html).toContain(`already answered by ${by}`);
    const viaApi = await api(`/v1/approvals/${approvalId}/decide`, { decision: 'reject' });
    expect(viaApi.status).toBe(409);
    expect((viaApi.body.error as { message: string }).message).toContain(by);
    await cancel(jobId);
  });

  test('an approval decided in the console first: the link is refused and names who decided', async () => {
    const { jobId, event } = await jobAsking('Publish the release notes #approve', 'approval_requested');
    const url = event.payload.answer_url as string;
    const approvalId = event.payload.approval_id as string;
    const [viaLink, viaApi] = await Promise.all([
      submitForm(url, { decision: 'approve' }),
      api(`/v1/approvals/${approvalId}/decide`, { decision: 'reject' }),
    ]);
    const linkWon = viaLink.state === 'answered';
    expect([linkWon, viaApi.status === 200].filter(Boolean)).toHaveLength(1);
    if (!linkWon) {
      expect({ status: viaLink.status, state: viaLink.state }).toEqual({ status: 410, state: 'used' });
      expect(viaLink.html).toContain('already answered by dev');
    } else {
      expect(viaApi.status).toBe(409);
    }
    const approval = await api(`/v1/approvals/${approvalId}`);
    expect(approval.body).toMatchObject({ status: linkWon ? 'approved' : 'rejected' });
    await cancel(jobId);
  });
});

test('a human task completed by link is recorded as completed by the link, once', async () => {
  // A task row as a product step writes it, on a real job; its link signed as the worker signs one.
  const { jobId } = await jobAsking('Plan a picnic #ask', 'ask_user');
  const job = await api(`/v1/jobs/${jobId}`);
  const taskId = `ht-${crypto.randomUUID()}`;
  await createHumanTask(infra.db.pool, {
    taskId,
    jobId,
    workflowId: job.body.workflow_id as string,
    waitingWorkflowId: `${jobId}/no-such-step`,
    role: 'L4.executor',
    title: 'Buy <bread> & "cheese"',
    detail: 'From the <b>market</b>',
    assignee: 'sam@example.com',
    dueAt: null,
  });
  const token = signAnswerLink(
    { job_id: jobId, kind: 'task', target: taskId, expires_at: Math.floor(Date.now() / 1000) + 60 },
    SECRET,
  );
  const url = `${keel.baseUrl}/answer/${token}`;
  const page = await open(url);
  expect({ status: page.status, state: page.state }).toEqual({ status: 200, state: 'open' });
  // What a job or a person wrote is shown as text, never as markup.
  expect(page.html).toContain('Buy &lt;bread&gt; &amp; &quot;cheese&quot;');
  expect(page.html).toContain('From the &lt;b&gt;market&lt;/b&gt;');
  expect(page.html).not.toContain('<b>market');

  expect((await submitForm(url, { note: 'bought' })).state).toBe('answered');
  const task = await api(`/v1/human-tasks/${taskId}`);
  expect(task.body).toMatchObject({ state: 'done', completed_by: `link:${answerLinkId(token)}`, note: 'bought' });
  expect((await submitForm(url, { note: 'again' })).state).toBe('used');
  await cancel(jobId);
});
