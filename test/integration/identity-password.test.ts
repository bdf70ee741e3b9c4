import Redis from 'ioredis';
import { buildAuthApp } from '../../auth/app';
import { COOKIE_CACHE_MS } from '../../auth/cookie-cache';
import { SIGN_IN_ATTEMPTS } from '../../auth/sign-in-rate-limit';
import { createPool } from '../../db/pool';
import { testRedisUrl } from './env';
import { APP_ORIGIN, PASSWORD, cookieHeader, startIdentity, type IdentityUnderTest, errorOf } from './identity-harness';

let identity: IdentityUnderTest;

beforeAll(async () => {
  identity = await startIdentity();
});

afterAll(async () => {
  await identity.close();
});

describe('the identity service: password sign-in, sessions and the cookie cache', () => {
  test('/healthz answers without a database', async () => {
    const deadPool = createPool({ dsn: 'postgres://nobody@127.0.0.1:1/none', max: 1, ssl: false, schema: 'x' });
    const app = await buildAuthApp({ pool: deadPool, env: identity.env }, { logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    } finally {
      await app.close();
      await deadPool.end();
    }
  });

  test('a right password signs in with one signed, cross-subdomain, HttpOnly, Secure, SameSite=Lax cookie', async () => {
    const user = await identity.createUser({ email: 'ada@example.test' });
    const res = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'Ada@Example.test', password: PASSWORD },
      remoteAddress: '10.1.0.1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ user: Record<string, unknown> }>().user).toMatchObject({
      id: user.id,
      email: 'ada@example.test',
      role: 'user',
      banned: false,
    });
    const session = (res.cookies as Array<Record<string, unknown>>).find((c) => c.name === 'keel_session')!;
    expect(session).toMatchObject({ domain: 'example.test', httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    // Signed: the session id is followed by its HMAC, so a forged id is not even looked up.
    const { rows } = await identity.pool.query<{ id: string }>(
      `SELECT id FROM ${identity.tables.sessions} WHERE user_id = $1`,
      [user.id],
    );
    expect(String(session.value)).toMatch(new RegExp(`^${rows[0]!.id}\\.`));
    const forged = await identity.app.inject({
      method: 'GET',
      url: '/api/auth/get-session?disableCookieCache=true',
      headers: { cookie: `keel_session=${rows[0]!.id}` },
    });
    expect(forged.json()).toBeNull();
  });

  test('a wrong password and an unknown email are both 401, with the same message', async () => {
    await identity.createUser({ email: 'bob@example.test' });
    const wrong = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'bob@example.test', password: 'not the password' },
      remoteAddress: '10.1.0.2',
    });
    const unknown = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'nobody@example.test', password: 'whatever it is' },
      remoteAddress: '10.1.0.2',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.cookies).toHaveLength(0);
  });

  test('a malformed body is a 400 with a JSON error and stores no session', async () => {
    const res = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'not-an-email', password: '' },
      remoteAddress: '10.1.0.3',
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('invalid_request');
  });

  test('an admin-created user waits for approval: the right password is refused with 403', async () => {
    const pending = await identity.createUser({ email: 'pending@example.test', approved: false });
    expect(pending).toMatchObject({ banned: true, banReason: 'pending_approval' });
    const res = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'pending@example.test', password: PASSWORD },
      remoteAddress: '10.1.0.4',
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('pending_approval');
  });

  test('public sign-up is closed with a 4xx and creates nothing', async () => {
    const before = await identity.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${identity.tables.users}`);
    const res = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email: 'new@example.test', password: 'a long enough password', name: 'New' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(errorOf(res).code).toBe('sign_up_disabled');
    const after = await identity.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${identity.tables.users}`);
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  test('the 11th attempt from one IP within 15 minutes is 429 with Retry-After, on every replica (Redis)', async () => {
    await identity.createUser({ email: 'carol@example.test' });
    // A second replica: its own app and Redis connection, the same Redis and instance id.
    const replicaRedis = new Redis(testRedisUrl);
    const replica = await buildAuthApp(
      { pool: identity.pool, env: identity.env, redis: replicaRedis },
      { logger: false },
    );
    const ip = '10.9.9.9';
    for (let attempt = 1; attempt <= SIGN_IN_ATTEMPTS; attempt += 1) {
      const res = await identity.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email: 'carol@example.test', password: attempt === SIGN_IN_ATTEMPTS ? PASSWORD : 'wrong password' },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(attempt === SIGN_IN_ATTEMPTS ? 200 : 401);
    }
    const eleventh = await replica.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'carol@example.test', password: PASSWORD },
      remoteAddress: ip,
    });
    await replica.close();
    replicaRedis.disconnect();
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.cookies).toHaveLength(0);
    expect(errorOf(eleventh).code).toBe('rate_limited');
    const retryAfter = Number(eleventh.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another IP is unaffected.
    const other = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: 'carol@example.test', password: PASSWORD },
      remoteAddress: '10.9.9.10',
    });
    expect(other.statusCode).toBe(200);
  });

  test('get-session and sign-out: signing out revokes the session in the database', async () => {
    const user = await identity.createUser({ email: 'dave@example.test' });
    const cookie = await identity.signIn('dave@example.test');
    const session = await identity.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
    expect(session.json()).toMatchObject({ user: { id: user.id, email: 'dave@example.test' } });

    const out = await identity.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(cookieHeader(out, cookie)).toBe('');
    const { rows } = await identity.pool.query(`SELECT 1 FROM ${identity.tables.sessions} WHERE user_id = $1`, [
      user.id,
    ]);
    expect(rows).toHaveLength(0);
    // The old cookie, replayed, no longer works once the database is asked.
    const replay = await identity.app.inject({
      method: 'GET',
      url: '/api/auth/get-session?disableCookieCache=true',
      headers: { cookie },
    });
    expect(replay.json()).toBeNull();
  });

  test('a cookie-cache hit skips the database for 5 minutes (clock injected), then the database decides', async () => {
    const user = await identity.createUser({ email: 'erin@example.test' });
    const cookie = await identity.signIn('erin@example.test');
    // Revoke the session behind the service's back: only a database check can notice.
    await identity.pool.query(`DELETE FROM ${identity.tables.sessions} WHERE user_id = $1`, [user.id]);

    const cached = await identity.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
    expect(cached.json()).toMatchObject({ user: { id: user.id }, session: { source: 'cache' } });

    identity.clock.advance(COOKIE_CACHE_MS - 1);
    const stillCached = await identity.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
    expect(stillCached.json()).toMatchObject({ session: { source: 'cache' } });

    identity.clock.advance(1);
    const expired = await identity.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
    expect(expired.json()).toBeNull();
  });

  test('a tampered cache cookie is ignored and the database answers', async () => {
    const user = await identity.createUser({ email: 'frank@example.test' });
    const cookie = await identity.signIn('frank@example.test');
    const tampered = cookie.replace(/keel_session_cache=[^;]+/, (pair) => `${pair.slice(0, -3)}abc`);
    const res = await identity.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: tampered },
    });
    expect(res.json()).toMatchObject({ user: { id: user.id }, session: { source: 'database' } });
  });

  test('CORS: a trusted origin gets credentials; an untrusted origin fails the preflight', async () => {
    const ok = await identity.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/sign-in/email',
      headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');

    const refused = await identity.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/sign-in/email',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(errorOf(refused).code).toBe('origin_not_trusted');

    // The same list guards the session endpoints themselves: a cross-origin sign-in from elsewhere is refused.
    const post = await identity.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: 'https://evil.example.com' },
      payload: { email: 'ada@example.test', password: PASSWORD },
      remoteAddress: '10.1.0.8',
    });
    expect(post.statusCode).toBe(403);
    expect(post.cookies).toHaveLength(0);
  });
});
