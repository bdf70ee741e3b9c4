import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { buildAuthApp } from '../../auth/app';
import { authEnv } from '../../auth/config';
import { createCredentialUser } from '../../auth/credential-users';
import type { IdentityTables } from '../../db/qualified-tables';
import type { Role, User } from '../../db/users';
import { buildConsoleApp } from '../../console/server/app';
import { consoleEnv } from '../../console/server/config';
import { createToken } from '../../db/tokens';
import { startDemoModelServer } from '../../routing/demo-model/server';
import { kbEnv } from '../../kb/config';
import { openKnowledgeHub, type KnowledgeHub } from '../../kb/hub';
import { indexPaths } from '../../kb/indexer';
import { khIdFor } from '../../kb/kh-id';
import { TEST_CONNECT_TIMEOUT_MS, uniqueSuffix } from '../integration/env';
import { createIdentityDatabase, INTERNAL_TOKEN } from '../integration/identity-database';
import type { SchedulingSettings } from '../../jobs/scheduling';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from '../integration/harness';
import type { WebhookSettings } from '../../webhooks/config';
import { openTestKbIndex } from '../integration/kb-index-database';
import { launchChromium } from '../../bench/chromium';
import { buildWebApp } from './web-build';
import { DEFAULT_BUILD_LIMITS } from '../../products/build-runner';
import { createSecretStore } from '../../secrets/store';
import { startFakeVercel, type FakeVercel } from '../fakes/fake-vercel';

export const PASSWORD = 'correct horse battery staple';
export const DEFAULT_BUDGET_CENTS = 2_500;
/** The org the console's acting token belongs to: every workflow the console starts is in it. */
export const CONSOLE_ORG = 'org-console';

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Errors the page's code logged and uncaught page errors seen so far (a product page must have none). */
  problems: string[];
  /**
   * Chromium's own "Failed to load resource" lines: every 4xx/5xx answer is logged so, including the ones a page
   * expects and explains (a 402 on submission, a refused self-disable), so tests assert on them separately.
   */
  failedLoads: string[];
}

/**
 * The console as a person meets it, on loopback: the Temporal dev server, PostgreSQL and Redis, the identity service,
 * the ingest API (budget gate on) with a worker on the offline demo model, the console serving a fresh build of
 * console/web, and Debian's Chromium driving it.
 */
export interface BrowserStack {
  infra: Infrastructure;
  keel: KeelUnderTest;
  identity: FastifyInstance;
  /** The identity service's own database: the ingest pool (`infra.db.pool`) cannot reach these tables. */
  identityPool: Pool;
  tables: IdentityTables;
  consoleUrl: string;
  /** The console process (the test drops its connections to make the browser reconnect). */
  console: FastifyInstance;
  /** The console's log lines at debug and above, as it wrote them (level and message). */
  consoleLog: Array<{ level: number; msg?: string }>;
  browser: Browser;
  /** With `products: true`: `#build` jobs deploy to this local Vercel with the token read from `secretsDir`. */
  products?: { vercel: FakeVercel; secretsDir: string };
  createUser(input: { email: string; role?: Role; approved?: boolean; budgetCents?: number }): Promise<User>;
  /** A fresh browser context (no cookies) on `path`; `options` such as the viewer's time zone. */
  open(path: string, options?: BrowserContextOptions): Promise<OpenedPage>;
  /** A fresh context signed in as `email` through the sign-in form, then on `path`. */
  openAs(email: string, path: string, options?: BrowserContextOptions): Promise<OpenedPage>;
  close(): Promise<void>;
}

export interface BrowserStackOptions {
  /**
   * Product builds (`#build`): a local Vercel and a secrets directory that starts without its token, so a release
   * assigns the "Add the Vercel token" human task until the test writes it.
   */
  products?: boolean;
  /**
   * Something the worker calls in front of the demo model (a proxy that pauses a streamed answer, so a test can look
   * at a level mid-call): given the demo model's base URL, the one the worker uses instead.
   */
  demoModelProxy?: (demoBaseUrl: string) => Promise<{ baseUrl: string; close(): Promise<void> }>;
  /** Webhook delivery (allowed hosts, retry schedule) for the API and the worker; absent: production defaults. */
  webhooks?: WebhookSettings;
  /** Fair scheduling (docs/scheduling.md): the slots every job claims; absent: off. */
  scheduling?: SchedulingSettings;
}

export async function startBrowserStack(options: BrowserStackOptions = {}): Promise<BrowserStack> {
  const web = await buildWebApp();
  const infra = await startInfrastructure();
  const { pool, schema } = infra.db;
  const closers: Array<() => Promise<unknown>> = [() => web.remove(), () => infra.close()];
  const close = async () => {
    for (const fn of closers.reverse()) await fn().catch((err: unknown) => console.error(err));
  };
  try {
    // The identity service on a database of its own, as the chart deploys it: it asks the ingest API for ownership
    // and spend, and the API asks it for budgets. The identity service's port is chosen first: each names the other.
    const apart = await createIdentityDatabase();
    closers.push(() => apart.drop());
    const { tables } = apart;
    const identityPort = await freePort();
    const identityUrl = `http://127.0.0.1:${identityPort}`;
    // The demo model's `#slow` pause, shortened: long enough to reload or cancel mid-run, short enough to wait for.
    const demo = await startDemoModelServer({ slowMs: 1_000 });
    closers.push(() => demo.close());
    const proxy = options.demoModelProxy ? await options.demoModelProxy(demo.baseUrl) : undefined;
    if (proxy) closers.push(() => proxy.close());
    let products: BrowserStack['products'];
    if (options.products) {
      const vercel = await startFakeVercel();
      closers.push(() => vercel.close());
      const secretsDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-console-secrets-'));
      closers.push(() => fs.rm(secretsDir, { recursive: true, force: true }));
      products = { vercel, secretsDir };
    }
    const keel = await startKeel({
      ...infra,
      demoBaseUrl: proxy?.baseUrl ?? demo.baseUrl,
      streamPollMs: 250,
      ...(options.webhooks ? { webhooks: options.webhooks } : {}),
      ...(options.scheduling ? { scheduling: options.scheduling } : {}),
      identityService: { url: identityUrl, internalToken: INTERNAL_TOKEN },
      ...(products
        ? {
            products: {
              buildLimits: DEFAULT_BUILD_LIMITS,
              vercel: {
                apiUrl: products.vercel.url,
                pollIntervalMs: 1,
                readyTimeoutMs: 30_000,
                tokenSecretId: 'VERCEL_TOKEN',
              },
            },
            secrets: createSecretStore({ dir: products.secretsDir, ttlMs: 0, fromEnv: false, env: {} }),
          }
        : {}),
    });
    closers.push(() => keel.close());
    await keel.startWorker();

    // A knowledge hub over the same database (its index where the run keeps it: kb-index-database.ts), with a few
    // documents for the knowledge page. The API reads its hub from its dependencies on each request, so handing it
    // one now is what KB_HUB_DIR does at start.
    const hubDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-console-hub-'));
    closers.push(() => fs.rm(hubDir, { recursive: true, force: true }));
    const index = await openTestKbIndex(schema);
    closers.push(() => index.close());
    const hub = await openKnowledgeHub({
      pool,
      schema,
      hubDir,
      env: kbEnv.parse(index.env),
      connectTimeoutMs: TEST_CONNECT_TIMEOUT_MS,
    });
    closers.push(() => hub.close());
    await seedHub(hub);
    keel.deps.kb = hub;

    // The identity service must trust the console's origin before the console exists, so its port comes first.
    const consolePort = await freePort();
    const consoleUrl = `http://127.0.0.1:${consolePort}`;

    const identity = await buildAuthApp(
      {
        pool: apart.pool,
        env: authEnv.parse({
          DATABASE_URL: apart.dsn,
          DATABASE_SCHEMA: apart.schema,
          INGEST_URL: keel.baseUrl,
          INTERNAL_API_TOKEN: INTERNAL_TOKEN,
          AUTHLIB_SECRET: 'a browser test secret of at least thirty-two characters',
          AUTHLIB_URL: 'http://127.0.0.1:9',
          AUTHLIB_COOKIE_DOMAIN: 'localhost',
          TRUSTED_ORIGINS: consoleUrl,
          IDP_CLIENT_ID: 'unused',
          IDP_CLIENT_SECRET: 'unused',
          IDP_ISSUER_URL: 'http://127.0.0.1:9/unused',
          ADMIN_EMAILS: '',
          DEFAULT_BUDGET_USD: String(DEFAULT_BUDGET_CENTS / 100),
          KEEL_INSTANCE_ID: `test-${uniqueSuffix()}`,
          // Behind the console, the client address is the console's X-Forwarded-For (see `open`).
          TRUST_PROXY_HOPS: '1',
        }),
      },
      { logger: false },
    );
    closers.push(() => identity.close());
    await identity.listen({ host: '127.0.0.1', port: identityPort });

    const { token } = await createToken(pool, {
      userId: 'console',
      orgId: CONSOLE_ORG,
      isAdmin: true,
      actsForUsers: true,
      label: 'console',
    });
    const consoleLog: Array<{ level: number; msg?: string }> = [];
    const app = await buildConsole(web.dir, identityUrl, keel.baseUrl, token, consoleLog);
    await app.listen({ host: '127.0.0.1', port: consolePort });
    closers.push(() => app.close());

    const browser = await launchChromium();
    closers.push(() => browser.close());

    let clients = 0;
    const open = async (path: string, options: BrowserContextOptions = {}): Promise<OpenedPage> => {
      // Every context is another person at another address, as a load balancer in front of the console would say:
      // the identity service's sign-in limit (10 per IP) then counts each test's attempts on their own.
      clients += 1;
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        extraHTTPHeaders: { 'x-forwarded-for': `10.1.${Math.floor(clients / 250)}.${clients % 250}` },
        ...options,
      });
      // Waits are for what a person would see; on a loaded 2-core machine a job step can take longer than the default.
      context.setDefaultTimeout(60_000);
      const page = await context.newPage();
      const problems: string[] = [];
      const failedLoads: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        if (message.text().startsWith('Failed to load resource')) failedLoads.push(message.text());
        else problems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      await page.goto(consoleUrl + path);
      return { page, context, problems, failedLoads };
    };

    return {
      infra,
      keel,
      identity,
      identityPool: apart.pool,
      tables,
      consoleUrl,
      console: app,
      consoleLog,
      browser,
      products,
      async createUser(input) {
        const user = await createCredentialUser(apart.pool, tables, {
          email: input.email,
          password: PASSWORD,
          role: input.role ?? 'user',
          approved: input.approved ?? true,
          defaultBudgetCents: DEFAULT_BUDGET_CENTS,
        });
        if (input.budgetCents !== undefined) {
          await apart.pool.query(`UPDATE ${tables.users} SET budget_cents = $1 WHERE id = $2`, [
            input.budgetCents,
            user.id,
          ]);
        }
        return user;
      },
      open,
      async openAs(email, path, options) {
        const opened = await open(`/login?next=${encodeURIComponent(path)}`, options);
        await signInWithForm(opened.page, email);
        await opened.page.waitForURL((url) => url.pathname === path.split('?')[0]);
        return opened;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

export const HUB_DOCS = {
  onboarding: { path: 'guides/onboarding.md', title: 'Onboarding guide' },
  deploys: { path: 'guides/deploys.md', title: 'Deploying Keel' },
} as const;

async function seedHub(hub: KnowledgeHub): Promise<void> {
  const doc = (hubPath: string, sensitivity: string, tags: string[], body: string) =>
    `---\nid: ${khIdFor(`hub:${hubPath}`)}\nsensitivity: ${sensitivity}\ntags: ${JSON.stringify(tags)}\n---\n${body}`;
  const files: Record<string, string> = {
    [HUB_DOCS.onboarding.path]: doc(
      HUB_DOCS.onboarding.path,
      'public',
      ['people', 'guides'],
      '# Onboarding guide\n\nNew teammates read the lighthouse handbook first. See [deploys](deploys.md).\n',
    ),
    [HUB_DOCS.deploys.path]: doc(
      HUB_DOCS.deploys.path,
      'internal',
      ['ops', 'guides'],
      '# Deploying Keel\n\nDeploys run from the release train every Tuesday.\n',
    ),
  };
  for (const [hubPath, content] of Object.entries(files)) {
    const file = path.join(hub.hubDir, ...hubPath.split('/'));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content);
  }
  const results = await indexPaths(hub, Object.keys(files));
  const refused = results.filter((r) => r.status !== 'indexed');
  if (refused.length > 0) throw new Error(`hub seed not indexed: ${JSON.stringify(refused)}`);
}

/** A loopback port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function buildConsole(
  webDir: string,
  identityUrl: string,
  ingestUrl: string,
  token: string,
  log: Array<{ level: number; msg?: string }>,
) {
  // Kept in memory, not printed: a test can assert what the console logged (a closed stream is no warning).
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) log.push(JSON.parse(line) as { level: number; msg?: string });
      }
      done();
    },
  });
  return buildConsoleApp(
    consoleEnv.parse({
      IDENTITY_URL: identityUrl,
      INGEST_API_URL: ingestUrl,
      CONSOLE_API_TOKEN: token,
      CONSOLE_WEB_DIR: webDir,
      TEMPORAL_UI_URL: 'http://127.0.0.1:8233',
      UPSTREAM_CONNECT_TIMEOUT_MS: '1000',
      TRUST_PROXY_HOPS: '1',
    }),
    { logger: { level: 'debug', stream: sink } },
  );
}

export async function signInWithForm(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
