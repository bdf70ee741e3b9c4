import { authEnv } from '../../auth/config';
import { startFakeOidcProvider, type FakeOidcProvider, type ProviderAccount } from '../fakes/oidc-provider';
import { testPostgresDsn } from './env';
import { APP_ORIGIN, AUTH_URL, cookieHeader, startIdentity, type IdentityUnderTest, errorOf } from './identity-harness';

const CALLBACK = `${AUTH_URL}/api/auth/callback/oidc`;
const BANNED_URL = `${APP_ORIGIN}/login?banned=1`;

let provider: FakeOidcProvider;
let identity: IdentityUnderTest;

beforeAll(async () => {
  provider = await startFakeOidcProvider({ redirectUris: [CALLBACK] });
  identity = await startIdentity({
    IDP_ISSUER_URL: provider.issuer,
    IDP_CLIENT_ID: provider.clientId,
    IDP_CLIENT_SECRET: provider.clientSecret,
    ADMIN_EMAILS: 'Boss@Example.test, other-admin@example.test',
    BANNED_REDIRECT_URL: BANNED_URL,
  });
});

afterAll(async () => {
  await identity?.close();
  await provider?.close();
});

/**
 * A browser's walk through the flow: start at the identity service, follow the provider's redirects (with its
 * cookies), and hand the callback back to the identity service. Returns the callback's answer.
 */
async function signInThroughProvider(account: ProviderAccount, tamper?: (callbackUrl: URL) => void) {
  provider.loginAs(account);
  const start = await identity.app.inject({
    method: 'GET',
    url: `/api/auth/sign-in/oidc?callbackURL=${encodeURIComponent(`${APP_ORIGIN}/dashboard`)}`,
  });
  expect(start.statusCode).toBe(302);
  const authorize = new URL(start.headers.location as string);
  expect(authorize.origin).toBe(provider.issuer);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('state')).toBeTruthy();
  const browserCookies = cookieHeader(start);

  let location = authorize.href;
  let providerCookies = '';
  for (let hop = 0; hop < 10 && !location.startsWith(AUTH_URL); hop += 1) {
    const res = await fetch(location, { redirect: 'manual', headers: { cookie: providerCookies } });
    for (const setCookie of res.headers.getSetCookie()) {
      const [pair] = setCookie.split(';');
      const name = pair!.slice(0, pair!.indexOf('='));
      providerCookies = [...providerCookies.split('; ').filter((c) => c && !c.startsWith(`${name}=`)), pair].join('; ');
    }
    const next = res.headers.get('location');
    if (!next) throw new Error(`the provider stopped at ${location} with ${res.status}: ${await res.text()}`);
    location = new URL(next, location).href;
  }
  const callback = new URL(location);
  expect(callback.origin + callback.pathname).toBe(CALLBACK);
  tamper?.(callback);
  return identity.app.inject({
    method: 'GET',
    url: callback.pathname + callback.search,
    headers: { cookie: browserCookies },
  });
}

async function userByEmail(email: string) {
  const { rows } = await identity.pool.query(
    `SELECT id, role, banned, ban_reason FROM ${identity.tables.users} WHERE email = $1`,
    [email],
  );
  return rows[0] as { id: string; role: string; banned: boolean; ban_reason: string | null } | undefined;
}

describe('OpenID Connect sign-in against a local provider', () => {
  test('a first sign-in creates a banned user pending approval and lands on BANNED_REDIRECT_URL', async () => {
    const before = provider.tokenRequests;
    const res = await signInThroughProvider({ sub: 'sub-newcomer', email: 'newcomer@example.test', name: 'New' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(BANNED_URL);
    expect(cookieHeader(res)).not.toContain('keel_session=');
    expect(provider.tokenRequests).toBe(before + 1);
    expect(await userByEmail('newcomer@example.test')).toMatchObject({
      role: 'user',
      banned: true,
      ban_reason: 'pending_approval',
    });
    // Coming back before approval changes nothing: still banned, still redirected.
    const again = await signInThroughProvider({ sub: 'sub-newcomer', email: 'newcomer@example.test' });
    expect(again.headers.location).toBe(BANNED_URL);
    const { rows } = await identity.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${identity.tables.users} WHERE email = $1`,
      ['newcomer@example.test'],
    );
    expect(rows[0]!.n).toBe(1);
  });

  test('an email in ADMIN_EMAILS becomes an admin, not banned, and gets a session', async () => {
    const res = await signInThroughProvider({ sub: 'sub-boss', email: 'boss@example.test' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${APP_ORIGIN}/dashboard`);
    expect(await userByEmail('boss@example.test')).toMatchObject({ role: 'admin', banned: false });
    const cookie = cookieHeader(res);
    const session = await identity.app.inject({ method: 'GET', url: '/internal/preflight', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    expect(session.json<{ user: Record<string, unknown> }>().user).toMatchObject({
      email: 'boss@example.test',
      role: 'admin',
    });
  });

  test('once an admin approves the pending user, the next sign-in gets a session', async () => {
    const bossCookie = cookieHeader(await signInThroughProvider({ sub: 'sub-boss', email: 'boss@example.test' }));
    const pending = await userByEmail('newcomer@example.test');
    const approve = await identity.app.inject({
      method: 'PATCH',
      url: `/admin/users/${pending!.id}`,
      headers: { cookie: bossCookie },
      payload: { disabled: false },
    });
    expect(approve.statusCode).toBe(200);
    const res = await signInThroughProvider({ sub: 'sub-newcomer', email: 'newcomer@example.test' });
    expect(res.headers.location).toBe(`${APP_ORIGIN}/dashboard`);
    expect(cookieHeader(res)).toContain('keel_session=');
  });

  test('a callback whose state does not match is refused with 400 and creates nothing', async () => {
    const res = await signInThroughProvider({ sub: 'sub-mallory', email: 'mallory@example.test' }, (url) =>
      url.searchParams.set('state', 'forged-state'),
    );
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('oauth_failed');
    expect(await userByEmail('mallory@example.test')).toBeUndefined();
  });

  test('a callback without the sign-in cookie (another browser) is refused with 400', async () => {
    const res = await identity.app.inject({ method: 'GET', url: '/api/auth/callback/oidc?code=abc&state=def' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('oauth_state_missing');
  });

  test('sign-in refuses a callbackURL outside TRUSTED_ORIGINS (no open redirect)', async () => {
    const res = await identity.app.inject({
      method: 'GET',
      url: `/api/auth/sign-in/oidc?callbackURL=${encodeURIComponent('https://evil.example.com/')}`,
    });
    expect(res.statusCode).toBe(400);
  });

  test('BANNED_REDIRECT_URL must be absolute: a relative value stops start-up', () => {
    const base = {
      DATABASE_URL: testPostgresDsn,
      AUTHLIB_SECRET: 'x'.repeat(32),
      AUTHLIB_URL: AUTH_URL,
      AUTHLIB_COOKIE_DOMAIN: 'example.test',
      TRUSTED_ORIGINS: APP_ORIGIN,
      IDP_CLIENT_ID: 'a',
      IDP_CLIENT_SECRET: 'b',
      IDP_ISSUER_URL: 'https://idp.example.test',
      ADMIN_EMAILS: '',
    };
    const relative = authEnv.safeParse({ ...base, BANNED_REDIRECT_URL: '/login?banned=1' });
    expect(relative.success).toBe(false);
    expect(relative.error?.issues[0]?.path).toEqual(['BANNED_REDIRECT_URL']);
    expect(authEnv.safeParse({ ...base, BANNED_REDIRECT_URL: BANNED_URL }).success).toBe(true);
  });
});
