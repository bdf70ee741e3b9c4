import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildConsoleApp } from './app';
import { consoleEnv } from './config';

/** A loopback port nobody listens on: the console's upstreams are unreachable, and every answer still has headers. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

let app: FastifyInstance;
let webDir: string;

beforeAll(async () => {
  webDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-console-headers-'));
  await fs.writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Keel</title><div id="root"></div>\n');
  await fs.mkdir(path.join(webDir, 'assets'));
  await fs.writeFile(path.join(webDir, 'assets', 'app-1234.js'), 'console.log("keel");\n');
  const port = await closedPort();
  const config = consoleEnv.parse({
    IDENTITY_URL: `http://127.0.0.1:${port}`,
    INGEST_API_URL: `http://127.0.0.1:${port}`,
    CONSOLE_API_TOKEN: 'keel_console_token_value_of_enough_length',
    CONSOLE_WEB_DIR: webDir,
    UPSTREAM_CONNECT_TIMEOUT_MS: '500',
  });
  app = await buildConsoleApp(config, { logger: false });
});

afterAll(async () => {
  await app?.close();
  await fs.rm(webDir, { recursive: true, force: true });
});

test.each([
  ['a page', '/login'],
  ['a page that needs a session', '/workflows'],
  ['an asset', '/assets/app-1234.js'],
  ['the API behind an unreachable identity service', '/api/session'],
  ['an unknown API route', '/api/nothing-here'],
])('%s carries the headers a console with approve buttons needs', async (_what, url) => {
  const res = await app.inject({ method: 'GET', url });
  const csp = String(res.headers['content-security-policy']);
  // No site may frame it; only its own scripts run.
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('same-origin');
});
