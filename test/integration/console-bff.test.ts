import crypto from 'node:crypto';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { createApproval } from '../../db/approvals';
import type { User } from '../../db/users';
import { startFakeOidcProvider, type FakeOidcProvider, type ProviderAccount } from '../fakes/oidc-provider';
import { recordJobCost } from './identity-harness';
import { freePort, startConsoleStack, type ConsoleStack } from './console-bff-harness';

let stack: ConsoleStack;
const users: Record<'alice' | 'bob' | 'root' | 'spender', User> = {} as never;
const cookies: Record<keyof typeof users, string> = {} as never;

let provider: FakeOidcProvider;
let consoleOrigin: string;

beforeAll(async () => {
  const port = await freePort();
  consoleOrigin = `http://127.0.0.1:${port}`;
  provider = await startFakeOidcProvider({ redirectUris: [`${consoleOrigin}/api/auth/callback/oidc`] });
  stack = await startConsoleStack({
    consolePort: port,
    identityEnv: {
      IDP_ISSUER_URL: provider.issuer,
      IDP_CLIENT_ID: provider.clientId,
      IDP_CLIENT_SECRET: provider.clientSecret,
      ADMIN_EMAILS: 'boss@provider.test',
      BANNED_REDIRECT_URL: `${consoleOrigin}/pending`,
    },
    consoleEnv: { OIDC_PROVIDER_ID: 'oidc', OIDC_PROVIDER_NAME: 'Test IdP' },
  });
  for (const [name, role] of [
    ['alice', 'user'],
    ['bob', 'user'],
    ['root', 'admin'],
    ['spender', 'user'],
  ] as const) {
    users[name] = await stack.createUser({ email: `${name}@example.test`, role });
    cookies[name] = await stack.signIn(`${name}@example.test`);
  }
  // The spender's month-to-date spend reaches the default budget: submissions are refused with 402.
  await recordJobCost(stack.infra.db.pool, stack.infra.db.schema, {
    userId: users.spender.id,
    costUsd: 30,
    createdAt: new Date(),
  });
});

afterAll(async () => {
  await stack?.close();
  await provider?.close();
});

type ErrorBody = { error: { code: string; message: string } };

function call(
  path: string,
  init: { method?: string; cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${stack.consoleUrl}${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
}

async function submit(who: keyof typeof users, body: Record<string, unknown> = {}) {
  const res = await call('/api/v1/chat', {
    method: 'POST',
    cookie: cookies[who],
    body: { prompt: 'Write hello.md', ...body },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('pages', () => {
  test('a page without the session cookie redirects to sign-in with the page to come back to', async () => {
    const res = await call('/workflows/wf-12?tab=graph');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/login?next=${encodeURIComponent('/workflows/wf-12?tab=graph')}`);
    for (const open of ['/login', '/pending', '/assets/app-1234.js']) {
      const page = await call(open);
      expect(page.status).toBe(200);
    }
    expect((await call('/assets/app-1234.js')).headers.get('cache-control')).toContain('immutable');
  });

  test('with a live session a page is the web app; with a stale cookie it is sign-in again', async () => {
    const page = await call('/jobs/job-anything', { cookie: cookies.alice });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const stale = await call('/approvals', { cookie: 'keel_session=forged.value' });
    expect(stale.status).toBe(302);
    expect(stale.headers.get('location')).toBe('/login?next=%2Fapprovals');
  });

  test('config is public; the session is the preflight user or 401', async () => {
    const config = await call('/api/console/config');
    expect(await config.json()).toEqual({
      passwordLogin: true,
      oidcProviders: [{ id: 'oidc', name: 'Test IdP' }],
      temporalUiUrl: 'http://127.0.0.1:8233',
      temporalNamespace: 'default',
    });
    const session = await call('/api/session', { cookie: cookies.alice });
    expect(await session.json()).toEqual({ user: { id: users.alice.id, email: 'alice@example.test', role: 'user' } });
    const none = await call('/api/session');
    expect(none.status).toBe(401);
    expect(((await none.json()) as ErrorBody).error.code).toBe('unauthenticated');
  });
});

describe('/api/v1 on the signed-in user behalf', () => {
  test('401 without a valid session, before anything reaches the ingest API', async () => {
    const res = await call('/api/v1/chat', { method: 'POST', cookie: 'keel_session=nope', body: { prompt: 'x' } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as ErrorBody).error.code).toBe('unauthenticated');
  });

  test('a state-changing call from another origin is refused before anything is checked or sent', async () => {
    const res = await call('/api/v1/chat', {
      method: 'POST',
      cookie: cookies.alice,
      body: { prompt: 'from a sibling site' },
      headers: { origin: 'http://evil.example.test' },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).error.code).toBe('cross_origin_refused');
    const admin = await call(`/api/admin/users/${users.alice.id}`, {
      method: 'PATCH',
      cookie: cookies.root,
      body: { role: 'admin' },
      headers: { origin: 'http://evil.example.test' },
    });
    expect(admin.status).toBe(403);
  });

  test('created_by is the session user whatever the body says', async () => {
    const accepted = await submit('alice', {
      created_by: users.bob.id,
      metadata: { created_by: 'bob', model_tier: 'frontier' },
    });
    expect(accepted.status).toBe(202);
    const job = await call(`/api/v1/jobs/${String(accepted.body.job_id)}`, { cookie: cookies.alice });
    expect(job.status).toBe(200);
    expect(await job.json()).toMatchObject({ created_by: users.alice.id, model_tier: 'frontier' });
    const workflow = await call(`/api/v1/workflows/${String(accepted.body.workflow_id)}`, { cookie: cookies.alice });
    expect(await workflow.json()).toMatchObject({ created_by: users.alice.id });
  });

  test("another user's job is 403 with the service's reason; an admin opens it; an unknown job is 404", async () => {
    const accepted = await submit('alice');
    const jobId = String(accepted.body.job_id);
    const denied = await call(`/api/v1/jobs/${jobId}`, { cookie: cookies.bob });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as ErrorBody).error.code).toBe('not_owner');
    const cancel = await call(`/api/v1/jobs/${jobId}/cancel`, { method: 'POST', cookie: cookies.bob, body: {} });
    expect(cancel.status).toBe(403);
    const admin = await call(`/api/v1/jobs/${jobId}`, { cookie: cookies.root });
    expect(admin.status).toBe(200);
    const missing = await call('/api/v1/jobs/job-does-not-exist', { cookie: cookies.alice });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as ErrorBody).error.code).toBe('not_found');
    // Appending to someone else's workflow is refused before the budget or the ingest API are asked.
    const append = await call(`/api/v1/workflows/${String(accepted.body.workflow_id)}/prompts`, {
      method: 'POST',
      cookie: cookies.bob,
      body: { prompt: 'and more' },
    });
    expect(append.status).toBe(403);
  });

  test('402 over budget carries the budget, and nothing was submitted', async () => {
    const refused = await submit('spender');
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      error: { code: 'over_budget' },
      budget: { overBudget: true, spentCents: 3000, budgetCents: 2500 },
    });
    const list = await call('/api/v1/workflows', { cookie: cookies.spender });
    expect(((await list.json()) as { workflows: unknown[] }).workflows).toHaveLength(0);
  });

  test("a member's workflow list holds only their own, page after page; an admin's holds everyone's", async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await call('/api/v1/workflows', {
        method: 'POST',
        cookie: cookies.bob,
        body: { prompt: `bob ${i}` },
      });
      expect(res.status).toBe(201);
    }
    await submit('alice');
    const seen: Array<{ workflow_id: string; created_by: string }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      // A header naming someone else from the browser is not passed on: the console names the session's user.
      const res = await call(`/api/v1/workflows${query}`, {
        cookie: cookies.bob,
        headers: { 'x-keel-acting-user': users.alice.id, 'x-keel-acting-role': 'admin' },
      });
      expect(res.status).toBe(200);
      const page = (await res.json()) as { workflows: typeof seen; next_cursor: string | null };
      seen.push(...page.workflows);
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((w) => w.created_by))).toEqual(new Set([users.bob.id]));
    expect(new Set(seen.map((w) => w.workflow_id)).size).toBe(3);

    const all = await call('/api/v1/workflows?limit=100', { cookie: cookies.root });
    const everyone = ((await all.json()) as { workflows: typeof seen }).workflows.map((w) => w.created_by);
    expect(everyone).toEqual(expect.arrayContaining([users.alice.id, users.bob.id]));
  });

  test("the ingest API refuses acting-user headers from an ordinary token, and honours the console's", async () => {
    const ordinary = await fetch(`${stack.keel.baseUrl}/v1/workflows`, {
      headers: {
        authorization: `Bearer ${stack.keel.token}`,
        'x-keel-acting-user': users.alice.id,
        'x-keel-acting-role': 'user',
      },
    });
    expect(ordinary.status).toBe(403);
    expect(((await ordinary.json()) as ErrorBody).error.code).toBe('acting_not_allowed');
    const asConsole = await fetch(`${stack.keel.baseUrl}/v1/workflows`, {
      headers: {
        authorization: `Bearer ${stack.consoleToken}`,
        'x-keel-acting-user': users.alice.id,
        'x-keel-acting-role': 'user',
      },
    });
    expect(asConsole.status).toBe(200);
    const mine = ((await asConsole.json()) as { workflows: Array<{ created_by: string }> }).workflows;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((w) => w.created_by === users.alice.id)).toBe(true);
  });

  test('the job stream is piped through as SSE and resumes after Last-Event-ID', async () => {
    // The worker starts only now: until here no job runs, so no workflow moves in the list while it is paged.
    await stack.startWorker();
    const accepted = await submit('alice');
    const path = `/api/v1/jobs/${String(accepted.body.job_id)}/stream`;
    const read = async (lastEventId?: string) => {
      const res = await call(path, {
        cookie: cookies.alice,
        headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const events: Array<{ id: string; kind: string }> = [];
      const messages = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
      for await (const message of messages) {
        // Live model output travels beside the durable events as `event: delta`, without an id (docs/live-output.md).
        if (message.event === 'delta') {
          expect(message.id).toBeUndefined();
          continue;
        }
        events.push({ id: message.id!, kind: (JSON.parse(message.data) as { kind: string }).kind });
      }
      return events;
    };
    const all = await read();
    expect(all.at(-1)!.kind).toBe('final');
    expect(all.map((e) => Number(e.id))).toEqual(all.map((_, i) => i + 1));
    const resumed = await read('2');
    expect(resumed.map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
  });
});

describe('approvals', () => {
  /** An approval as a level's activity writes it, on a job submitted through the console by `who`. */
  async function approvalOn(who: keyof typeof users): Promise<string> {
    const job = await submit(who);
    const approval = await createApproval(stack.infra.db.pool, {
      approvalId: `ap-${crypto.randomUUID()}`,
      jobId: String(job.body.job_id),
      workflowId: String(job.body.workflow_id),
      waitingWorkflowId: `${String(job.body.job_id)}/L4.executor/1`,
      role: 'L4.executor',
      action: 'deploy to production',
      reason: 'the user asked for a live site',
    });
    return approval.approval_id;
  }

  test("a member lists and decides only approvals of their own jobs; another's is 403; an admin decides any", async () => {
    const alices = await approvalOn('alice');
    const bobs = await approvalOn('bob');
    const listed = await call('/api/v1/approvals?status=pending&limit=100', { cookie: cookies.bob });
    const ids = ((await listed.json()) as { approvals: Array<{ approval_id: string }> }).approvals.map(
      (a) => a.approval_id,
    );
    expect(ids).toContain(bobs);
    expect(ids).not.toContain(alices);

    const foreign = await call(`/api/v1/approvals/${alices}/decide`, {
      method: 'POST',
      cookie: cookies.bob,
      body: { decision: 'approve' },
    });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as ErrorBody).error.code).toBe('not_owner');
    expect((await call(`/api/v1/approvals/${alices}`, { cookie: cookies.bob })).status).toBe(403);

    const own = await call(`/api/v1/approvals/${bobs}/decide`, {
      method: 'POST',
      cookie: cookies.bob,
      body: { decision: 'reject', comment: 'not today' },
    });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ status: 'rejected', decided_by: users.bob.id });
    const admin = await call(`/api/v1/approvals/${alices}/decide`, {
      method: 'POST',
      cookie: cookies.root,
      body: { decision: 'approve' },
    });
    expect(admin.status).toBe(200);
    expect((await call('/api/v1/approvals/ap-unknown', { cookie: cookies.alice })).status).toBe(404);
  });
});

describe('identity pass-through', () => {
  test('the admin API passes status and body through, the self-disable refusal included', async () => {
    const list = await call('/api/admin/users', { cookie: cookies.root });
    expect(list.status).toBe(200);
    const emails = ((await list.json()) as { users: Array<{ email: string }> }).users.map((u) => u.email);
    expect(emails).toEqual(expect.arrayContaining(['alice@example.test', 'root@example.test']));

    const self = await call(`/api/admin/users/${users.root.id}`, {
      method: 'PATCH',
      cookie: cookies.root,
      body: { disabled: true },
    });
    expect(self.status).toBe(403);
    const refusal = (await self.json()) as ErrorBody;
    expect(refusal.error.code).toBe('self_change_blocked');
    expect(refusal.error.message.length).toBeGreaterThan(0);

    const member = await call('/api/admin/users', { cookie: cookies.alice });
    expect(member.status).toBe(403);
    const budget = await call('/api/me/budget', { cookie: cookies.alice });
    expect(budget.status).toBe(200);
    expect(await budget.json()).toMatchObject({ exempt: false, budgetCents: 2500 });
  });

  test('sign-out through the console clears the cookies and ends the session', async () => {
    const cookie = await stack.signIn('alice@example.test');
    const out = await call('/api/auth/sign-out', {
      method: 'POST',
      cookie,
      body: {},
      headers: { origin: stack.consoleUrl },
    });
    expect(out.status).toBe(200);
    const cleared = out.headers.getSetCookie().find((c) => c.startsWith('keel_session='));
    expect(cleared).toMatch(/^keel_session=;.*(Expires=Thu, 01 Jan 1970|Max-Age=0)/);
    // A submission's preflight reads the database (budget=1), so the ended session is refused at once.
    const after = await call('/api/v1/chat', { method: 'POST', cookie, body: { prompt: 'after sign-out' } });
    expect(after.status).toBe(401);
  });
});

describe('OpenID Connect through the console', () => {
  /**
   * A browser's walk: start at the console, follow the provider's redirects (with its cookies), and come back to the
   * console's callback with the OAuth state cookie the console relayed. Returns the callback's answer.
   */
  async function signInThroughProvider(account: ProviderAccount) {
    provider.loginAs(account);
    const start = await call(`/api/auth/sign-in/oidc?callbackURL=${encodeURIComponent(`${consoleOrigin}/workflows`)}`);
    expect(start.status).toBe(302);
    expect(new URL(start.headers.get('location')!).origin).toBe(provider.issuer);
    const browser = start.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .join('; ');
    let location = start.headers.get('location')!;
    let providerCookies = '';
    for (let hop = 0; hop < 10 && !location.startsWith(consoleOrigin); hop += 1) {
      const res = await fetch(location, { redirect: 'manual', headers: { cookie: providerCookies } });
      for (const setCookie of res.headers.getSetCookie()) {
        const [pair] = setCookie.split(';');
        const name = pair!.slice(0, pair!.indexOf('='));
        providerCookies = [...providerCookies.split('; ').filter((c) => c && !c.startsWith(`${name}=`)), pair].join(
          '; ',
        );
      }
      const next = res.headers.get('location');
      if (!next) throw new Error(`the provider stopped at ${location} with ${res.status}`);
      location = new URL(next, location).href;
    }
    const callback = new URL(location);
    expect(callback.pathname).toBe('/api/auth/callback/oidc');
    return call(callback.pathname + callback.search, { cookie: browser });
  }

  test('an admin email signs in and lands on the page it asked for, with a session the console accepts', async () => {
    const res = await signInThroughProvider({ sub: 'sub-boss', email: 'boss@provider.test', name: 'Boss' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${consoleOrigin}/workflows`);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .join('; ');
    const session = await call('/api/session', { cookie });
    expect(await session.json()).toMatchObject({ user: { email: 'boss@provider.test', role: 'admin' } });
  });

  test('a newcomer is created pending approval and lands on the pending page without a session', async () => {
    const res = await signInThroughProvider({ sub: 'sub-new', email: 'newcomer@provider.test' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${consoleOrigin}/pending`);
    expect(res.headers.getSetCookie().some((c) => /^keel_session=[^;]/.test(c))).toBe(false);
    expect((await call('/pending')).status).toBe(200);
  });
});

describe('an unreachable upstream', () => {
  test('the identity service refusing connections: JSON and the page both carry ECONNREFUSED', async () => {
    const down = await stack.startConsole({ IDENTITY_URL: `http://127.0.0.1:${await freePort()}` });
    const api = await fetch(`${down.url}/api/session`, { headers: { cookie: cookies.alice } });
    expect(api.status).toBe(502);
    const body = (await api.json()) as ErrorBody;
    expect(body.error.code).toBe('identity_unreachable');
    expect(body.error.message).toContain('ECONNREFUSED');

    const page = await fetch(`${down.url}/workflows`, { headers: { cookie: cookies.alice }, redirect: 'manual' });
    expect(page.status).toBe(502);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('ECONNREFUSED');
  });

  test('the ingest API refusing connections: the session is checked, then ingest_unreachable with ECONNREFUSED', async () => {
    const down = await stack.startConsole({ INGEST_API_URL: `http://127.0.0.1:${await freePort()}` });
    const res = await fetch(`${down.url}/api/v1/models`, { headers: { cookie: cookies.alice } });
    expect(res.status).toBe(502);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe('ingest_unreachable');
    expect(body.error.message).toContain('ECONNREFUSED');
    // Without a session the answer is still 401: nothing is sent upstream before the preflight.
    expect((await fetch(`${down.url}/api/v1/models`)).status).toBe(401);
  });

  test('an unknown identity host: ENOTFOUND', async () => {
    const down = await stack.startConsole({ IDENTITY_URL: 'http://identity.invalid' });
    const res = await fetch(`${down.url}/api/v1/workflows`, { headers: { cookie: cookies.alice } });
    expect(res.status).toBe(502);
    expect(((await res.json()) as ErrorBody).error.message).toContain('ENOTFOUND');
  });
});
