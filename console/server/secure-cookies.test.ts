import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { cookieIsSecure } from '../../auth/app';
import { buildConsoleApp } from './app';
import { consoleEnv } from './config';
import { withSecure } from './secure-cookies';

/**
 * The session cookie is `Secure` whenever the console or the identity service is reached over HTTPS, and stays
 * without it on a plain-http loopback console (`npm start` on http://127.0.0.1 must keep signing people in).
 */
describe("the identity service's own rule (AUTHLIB_URL)", () => {
  test.each([
    ['http://127.0.0.1:3200', false],
    ['http://localhost:3200', false],
    ['https://127.0.0.1:3200', true],
    ['https://auth.example.com', true],
    ['http://auth.example.com', true],
  ])('%s → Secure %s', (url, secure) => {
    expect(cookieIsSecure(url)).toBe(secure);
  });
});

test('withSecure adds the attribute once, and only as an attribute', () => {
  expect(withSecure('keel_session=abc; Path=/; HttpOnly')).toBe('keel_session=abc; Path=/; HttpOnly; Secure');
  expect(withSecure('keel_session=abc; Secure; Path=/')).toBe('keel_session=abc; Secure; Path=/');
  expect(withSecure('secure=1; Path=/')).toBe('secure=1; Path=/; Secure');
});

describe('the console relaying the identity service’s cookies', () => {
  let identity: http.Server;
  let app: FastifyInstance;
  let webDir: string;

  beforeAll(async () => {
    // The identity service on loopback http sets its cookies without Secure, as cookieIsSecure says it does there.
    identity = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('set-cookie', [
        'keel_session=s1.sig; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000',
        'keel_session_cache=c1.sig; Path=/; HttpOnly; SameSite=Lax; Max-Age=300',
      ]);
      res.end(JSON.stringify({ user: { id: 'u1' }, path: req.url }));
    });
    await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve));
    const identityUrl = `http://127.0.0.1:${(identity.address() as AddressInfo).port}`;
    webDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-console-cookies-'));
    await fs.writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Keel</title>\n');
    app = await buildConsoleApp(
      consoleEnv.parse({
        IDENTITY_URL: identityUrl,
        INGEST_API_URL: identityUrl,
        CONSOLE_API_TOKEN: 'keel_console_token_value_of_enough_length',
        CONSOLE_WEB_DIR: webDir,
        TRUST_PROXY_HOPS: '1',
      }),
      { logger: false },
    );
  });

  afterAll(async () => {
    await app?.close();
    identity?.closeAllConnections();
    await new Promise<void>((resolve) => identity.close(() => resolve()));
    await fs.rm(webDir, { recursive: true, force: true });
  });

  const signIn = (headers: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ email: 'ada@example.test', password: 'x' }),
    });

  const cookies = (res: Awaited<ReturnType<typeof signIn>>) => {
    const value = res.headers['set-cookie'];
    return Array.isArray(value) ? value : value === undefined ? [] : [value];
  };

  test('over plain http (a loopback console) the cookies are relayed as they are, without Secure', async () => {
    const res = await signIn({});
    expect(res.statusCode).toBe(200);
    const relayed = cookies(res);
    expect(relayed).toHaveLength(2);
    for (const cookie of relayed) expect(cookie).not.toMatch(/;\s*Secure/i);
  });

  test('behind an HTTPS proxy (X-Forwarded-Proto https from a trusted hop) every cookie is Secure', async () => {
    const res = await signIn({ 'x-forwarded-proto': 'https' });
    expect(res.statusCode).toBe(200);
    const relayed = cookies(res);
    expect(relayed).toHaveLength(2);
    for (const cookie of relayed) expect(cookie).toMatch(/; Secure$/);
    expect(relayed[0]).toMatch(/^keel_session=s1\.sig; Path=\/; HttpOnly; SameSite=Lax/);
  });
});
