import { Connection } from '@temporalio/client';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../api/app';
import { listTokensCommand, revokeTokenCommand } from '../../cli/token';
import { createToken } from '../../db/tokens';
import type { QueueStore } from '../../queue/queue-store';
import { apiDepsOver, createTestDatabase, createTestQueue, type TestDatabase } from './harness';

/**
 * Authentication on the routed path, API tokens' lifetimes (expiry, last use, list, revoke) and per-org project slugs.
 * Nothing here starts a job, so the Temporal client points at a closed port.
 */
let db: TestDatabase;
let queue: QueueStore;
let connection: Connection;
let app: FastifyInstance;

beforeAll(async () => {
  db = await createTestDatabase();
  queue = await createTestQueue();
  connection = Connection.lazy({ address: '127.0.0.1:1', interceptors: [] });
  app = await buildApp(
    {
      ...apiDepsOver({ pool: db.pool, queue, connection }),
      rateLimits: { userPerMinute: 10_000, orgPerMinute: 10_000 },
    },
    { logger: false },
  );
});

afterAll(async () => {
  await app?.close();
  await connection?.close().catch(() => undefined);
  await queue?.close();
  await db?.drop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const errorCode = (res: LightMyRequestResponse) => res.json<{ error: { code: string } }>().error.code;

/** One path per route prefix of the ingest API, the way a client would call it. */
const PRIVATE_PATHS = [
  ['GET', '/v1/models'],
  ['GET', '/v1/scenarios'],
  ['GET', '/v1/projects'],
  ['GET', '/v1/projects/p1'],
  ['GET', '/v1/jobs/job-1'],
  ['GET', '/v1/jobs/job-1/stream'],
  ['GET', '/v1/jobs/job-1/files'],
  ['GET', '/v1/jobs/job-1/files/a.md'],
  ['POST', '/v1/jobs/job-1/cancel'],
  ['POST', '/v1/jobs/job-1/resume'],
  ['POST', '/v1/chat'],
  ['GET', '/v1/workflows'],
  ['GET', '/v1/workflows/wf-1'],
  ['GET', '/v1/workflows/wf-1/prompts'],
  ['GET', '/v1/workflows/wf-1/graph'],
  ['GET', '/v1/workflows/wf-1/run-graph'],
  ['GET', '/v1/approvals'],
  ['GET', '/v1/approvals/ap-1'],
  ['POST', '/v1/kb/query'],
  ['GET', '/v1/atlas/domains'],
  ['GET', '/v1/designs'],
  ['GET', '/v1/human-tasks'],
  ['GET', '/v1/capabilities'],
  ['GET', '/v1/capabilities/roadmaps/rm-1'],
  ['GET', '/v1/verticals'],
  ['GET', '/v1/work-items'],
  ['GET', '/v1/work-types'],
  ['GET', '/v1/initiatives'],
  ['GET', '/v1/command/intents'],
  ['GET', '/v1/stats'],
  ['GET', '/v1/tokens'],
  ['GET', '/v1/localinf'],
] as const;

/** Spellings of the same path that the router decodes back to it (lower- and upper-case hex escapes). */
function encodings(path: string): string[] {
  const segments = path.split('/').slice(1);
  const hex = (ch: string) => `%${ch.charCodeAt(0).toString(16)}`;
  const variants: string[] = [];
  segments.forEach((segment, i) => {
    for (const escape of [hex(segment[0]!), hex(segment[0]!).toUpperCase()]) {
      const copy = [...segments];
      copy[i] = escape + segment.slice(1);
      variants.push(`/${copy.join('/')}`);
    }
  });
  variants.push(`/${[[...segments[0]!].map(hex).join(''), ...segments.slice(1)].join('/')}`);
  return variants;
}

describe('authentication is decided on the routed path', () => {
  test('GET /%761/models without a token is 401, not the model list', async () => {
    const res = await app.inject({ method: 'GET', url: '/%761/models' });
    expect(res.statusCode).toBe(401);
  });

  test.each(PRIVATE_PATHS)('%s %s and its percent-encoded spellings are 401 without a token', async (method, path) => {
    for (const url of [path, ...encodings(path)]) {
      const res = await app.inject({ method, url });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 401 });
    }
  });

  test('the public liveness route answers without a token, however it is spelled', async () => {
    for (const url of ['/healthz', ...encodings('/healthz')]) {
      const res = await app.inject({ method: 'GET', url });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
    }
  });

  test('an encoded path with a valid token reaches its route', async () => {
    const { token } = await createToken(db.pool, { userId: 'enc', orgId: 'org-enc', isAdmin: false });
    const res = await app.inject({ method: 'GET', url: '/%76%31/%6dodels', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('models');
  });
});

describe('API token lifetimes', () => {
  test('an expired token is refused; an unexpired one works', async () => {
    const expired = await createToken(db.pool, {
      userId: 'exp',
      orgId: 'org-exp',
      isAdmin: false,
      expiresAt: new Date(Date.now() - 1000),
    });
    const live = await createToken(db.pool, {
      userId: 'exp',
      orgId: 'org-exp',
      isAdmin: false,
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await app.inject({ method: 'GET', url: '/v1/projects', headers: bearer(expired.token) })).statusCode).toBe(
      401,
    );
    expect((await app.inject({ method: 'GET', url: '/v1/projects', headers: bearer(live.token) })).statusCode).toBe(
      200,
    );
  });

  test('last_used_at is written on first use and not again within the minute', async () => {
    const { token, tokenId } = await createToken(db.pool, { userId: 'lu', orgId: 'org-lu', isAdmin: false });
    const lastUsed = async () =>
      (
        await db.pool.query<{ t: Date | null }>('SELECT last_used_at AS t FROM api_tokens WHERE token_id = $1', [
          tokenId,
        ])
      ).rows[0]!.t;
    expect(await lastUsed()).toBeNull();
    await app.inject({ method: 'GET', url: '/v1/projects', headers: bearer(token) });
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await app.inject({ method: 'GET', url: '/v1/projects', headers: bearer(token) });
    expect(await lastUsed()).toEqual(first);
    // A use more than a minute after the last recorded one is recorded again.
    await db.pool.query("UPDATE api_tokens SET last_used_at = now() - interval '2 minutes' WHERE token_id = $1", [
      tokenId,
    ]);
    const aged = await lastUsed();
    await app.inject({ method: 'GET', url: '/v1/projects', headers: bearer(token) });
    expect((await lastUsed())!.getTime()).toBeGreaterThan(aged!.getTime());
  });

  test('a member makes a token with an expiry, lists only their own, and revokes it at once', async () => {
    const mine = await createToken(db.pool, { userId: 'ann', orgId: 'org-t', isAdmin: false });
    const other = await createToken(db.pool, { userId: 'bob', orgId: 'org-t', isAdmin: false });

    const created = await app.inject({
      method: 'POST',
      url: '/v1/tokens',
      headers: bearer(mine.token),
      payload: { label: 'laptop', expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString() },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json<{ token: string; token_id: string; user_id: string; expires_at: string }>();
    expect(body.user_id).toBe('ann');
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now());

    const defaulted = await app.inject({ method: 'POST', url: '/v1/tokens', headers: bearer(mine.token), payload: {} });
    const days = (new Date(defaulted.json<{ expires_at: string }>().expires_at).getTime() - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(90);

    const tooLong = await app.inject({
      method: 'POST',
      url: '/v1/tokens',
      headers: bearer(mine.token),
      payload: { expires_at: new Date(Date.now() + 400 * 86_400_000).toISOString() },
    });
    expect(tooLong.statusCode).toBe(400);

    const listed = await app.inject({ method: 'GET', url: '/v1/tokens', headers: bearer(mine.token) });
    const ids = listed.json<{ tokens: Array<{ token_id: string; user_id: string }> }>().tokens;
    expect(ids.every((t) => t.user_id === 'ann')).toBe(true);
    expect(ids.map((t) => t.token_id)).toContain(body.token_id);
    expect(JSON.stringify(listed.json())).not.toContain(body.token);

    // Bob's token is not Ann's to see or revoke.
    const bobs = await app.inject({ method: 'GET', url: '/v1/tokens', headers: bearer(other.token) });
    const bobId = bobs.json<{ tokens: Array<{ token_id: string }> }>().tokens[0]!.token_id;
    const refused = await app.inject({ method: 'DELETE', url: `/v1/tokens/${bobId}`, headers: bearer(mine.token) });
    expect(refused.statusCode).toBe(404);

    expect((await app.inject({ method: 'GET', url: '/v1/projects', headers: bearer(body.token) })).statusCode).toBe(
      200,
    );
    const revoked = await app.inject({
      method: 'DELETE',
      url: `/v1/tokens/${body.token_id}`,
      headers: bearer(mine.token),
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json<{ revoked_at: string | null }>().revoked_at).not.toBeNull();
    expect((await app.inject({ method: 'GET', url: '/v1/projects', headers: bearer(body.token) })).statusCode).toBe(
      401,
    );
  });

  test('keel token list shows tokens without secrets; keel token revoke stops one at once', async () => {
    const { token, tokenId } = await createToken(db.pool, {
      userId: 'cli-user',
      orgId: 'org-cli',
      isAdmin: false,
      label: 'ci runner',
    });
    const lines: string[] = [];
    expect(await listTokensCommand(db.pool, ['--user', 'cli-user'], (l) => lines.push(l))).toBe(0);
    const out = lines.join('\n');
    expect(out).toContain(tokenId);
    expect(out).toContain('ci runner');
    expect(out).not.toContain(token);

    expect(await revokeTokenCommand(db.pool, [tokenId], (l) => lines.push(l))).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/v1/projects', headers: bearer(token) })).statusCode).toBe(401);
    const after: string[] = [];
    await listTokensCommand(db.pool, ['--user', 'cli-user'], (l) => after.push(l));
    expect(after.join('\n')).not.toContain(tokenId);
    await listTokensCommand(db.pool, ['--user', 'cli-user', '--all'], (l) => after.push(l));
    expect(after.join('\n')).toContain('revoked');
    expect(await revokeTokenCommand(db.pool, ['tok_nonexistent'], () => undefined)).toBe(1);
  });
});

describe('project slugs are per org', () => {
  test("another org's slug is free: creating it is 201, not 409, and each org sees its own project", async () => {
    const a = await createToken(db.pool, { userId: 'pa', orgId: 'org-pa', isAdmin: false });
    const b = await createToken(db.pool, { userId: 'pb', orgId: 'org-pb', isAdmin: false });
    const make = (token: string, name: string) =>
      app.inject({ method: 'POST', url: '/v1/projects', headers: bearer(token), payload: { name, slug: 'atlas' } });
    expect((await make(a.token, 'Atlas of A')).statusCode).toBe(201);
    const second = await make(b.token, 'Atlas of B');
    expect(second.statusCode).toBe(201);
    // Within one org the slug is still taken.
    const again = await make(b.token, 'Atlas again');
    expect(again.statusCode).toBe(409);
    expect(errorCode(again)).toBe('slug_taken');

    const seenByA = await app.inject({ method: 'GET', url: '/v1/projects/atlas', headers: bearer(a.token) });
    const seenByB = await app.inject({ method: 'GET', url: '/v1/projects/atlas', headers: bearer(b.token) });
    expect(seenByA.json<{ name: string }>().name).toBe('Atlas of A');
    expect(seenByB.json<{ name: string }>().name).toBe('Atlas of B');
    // Names derived from a title collide per org only too.
    const derived = await app.inject({
      method: 'POST',
      url: '/v1/projects',
      headers: bearer(b.token),
      payload: { name: 'Atlas' },
    });
    expect(derived.json<{ slug: string }>().slug).toBe('atlas-2');
  });
});
