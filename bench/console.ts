// Prints what the console costs a person's browser, each next to a baseline measured in the same run (nothing is
// asserted):
//   1. time to first render of the workflow list and of a job page (a finished job of E events), cold (a new browser
//      context: empty cache) and warm (the same context again: hashed assets from the HTTP cache), against a bare
//      static page served the same way;
//   2. the JavaScript shipped: every file under dist/console/web/assets, raw and gzip-compressed;
//   3. the job page's frame time while E events (default 2,000) stream into its timeline, against the frame time of
//      the bare page over the same span.
// The stack is the real one minus Temporal (reads never dial it): PostgreSQL (BENCH_POSTGRES_DSN; throwaway
// schemas), the ingest API, the identity service and the console serving `npm run build`'s dist/console/web, with
// Debian's Chromium (bench/chromium.ts: its headless shell when installed). W workflows (default 10,000) are seeded
// for the list.
// Events are appended as the worker appends them (appendEvent, then the live channel), as fast as they commit.
// Run: npm run build && npm run bench:console [--workflows=10000] [--events=2000] [--runs=5]
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { Client, Connection } from '@temporalio/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Pool } from 'pg';
import { jobEventsChannel } from '../events/job-event-feed';
import { buildAuthApp } from '../auth/app';
import { authEnv } from '../auth/config';
import { createCredentialUser } from '../auth/credential-users';
import { migrateIdentity } from '../auth/migrate';
import { identityTables } from '../db/qualified-tables';
import { buildConsoleApp } from '../console/server/app';
import { consoleEnv, DEFAULT_WEB_DIR } from '../console/server/config';
import { appendEvent, type EventIds } from '../events/store';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { createToken } from '../db/tokens';
import type { EventDraft } from '../events/envelope';
import { createQueueStore } from '../queue/create-queue-store';
import type { QueueStore } from '../queue/queue-store';
import { startBenchApi } from './api';
import { launchChromium } from './chromium';
import { param, percentile, printJson } from './measure';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const ORG = 'org-bench-console';
const PASSWORD = 'bench password that is long enough';
const WAIT_MS = 120_000;

/** Records, in the page, when the first element matching a selector appears (ms since navigation start). */
const firstSeenScript = (selector: string) => `
  window.__firstSeen = null;
  new MutationObserver((_, observer) => {
    if (window.__firstSeen === null && document.querySelector(${JSON.stringify(selector)})) {
      window.__firstSeen = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

/** Frame intervals from requestAnimationFrame, collected until __stopFrames is set. */
const RECORD_FRAMES = `
  window.__frames = [];
  window.__stopFrames = false;
  let previous = performance.now();
  const tick = (now) => {
    window.__frames.push(now - previous);
    previous = now;
    if (!window.__stopFrames) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
`;

interface Stack {
  consoleUrl: string;
  bareUrl: string;
  pool: Pool;
  queue: QueueStore;
  cookies: Array<{ name: string; value: string; url: string }>;
  /** The ingest API itself and a token for it: the stream read without the console in between. */
  apiUrl: string;
  apiToken: string;
  close(): Promise<void>;
}

/** ms to read a whole event stream (a finished job: it replays and closes), over plain HTTP. */
async function readStream(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers } });
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}`);
  for await (const chunk of res.body) void chunk;
  return performance.now() - started;
}

async function seedWorkflows(pool: Pool, userId: string, count: number): Promise<void> {
  await pool.query(
    `INSERT INTO workflows (workflow_id, created_by, org_id, created_at, updated_at)
     SELECT 'wf-' || g, $2, $3, now() - g * interval '1 minute', now() - g * interval '1 minute'
       FROM generate_series(1, $1::int) g`,
    [count, userId, ORG],
  );
  await pool.query(
    `INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by)
     SELECT 'pt-' || substr(workflow_id, 4), workflow_id, 'Write hello.md that greets the reader.', created_by
       FROM workflows`,
  );
  await pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue, created_at)
     SELECT 'job-bench-' || substr(workflow_id, 4), workflow_id, 'pt-' || substr(workflow_id, 4), 'completed',
            created_by, org_id, 'bench', created_at
       FROM workflows`,
  );
}

/** A running job with no events yet, whose events the bench then appends. */
async function seedRunningJob(pool: Pool, userId: string, name: string): Promise<EventIds> {
  const ids = { job_id: `job-${name}`, workflow_id: `wf-${name}`, prompt_id: `pt-${name}` };
  await pool.query(`INSERT INTO workflows (workflow_id, created_by, org_id) VALUES ($1, $2, $3)`, [
    ids.workflow_id,
    userId,
    ORG,
  ]);
  await pool.query(`INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ($1, $2, $3, $4)`, [
    ids.prompt_id,
    ids.workflow_id,
    'Write many files #bench',
    userId,
  ]);
  await pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue, started_at)
     VALUES ($1, $2, $3, 'running', $4, $5, 'bench', now())`,
    [ids.job_id, ids.workflow_id, ids.prompt_id, userId, ORG],
  );
  return ids;
}

/** The i-th event of a busy executor level: the kinds and payloads a real job's timeline is made of. */
function draft(jobId: string, i: number): EventDraft {
  const attempt = 1 + Math.floor(i / 100);
  const level_id = `${jobId}/L4.executor/${attempt}`;
  const role = 'L4.executor';
  const kinds: Array<[string, Record<string, unknown>]> = [
    ['level_started', { level_id, role, attempt }],
    ['routing_decision', { level_id, provider: 'demo', model: 'keel-demo', tier: 'free', model_candidates: [] }],
    ['prompt_sent', { level_id, round: i, preview: `Round ${i}: write the next file of the plan` }],
    ['thinking', { level_id, round: i, summary: 'Deciding which file to write next and what it should hold.' }],
    ['tool_call', { level_id, call_id: `call-${i}`, name: 'write_file' }],
    ['file_created', { path: `docs/file-${i}.md`, sha256: 'a'.repeat(64), size_bytes: 1200 + i }],
    ['tool_result', { level_id, call_id: `call-${i}`, preview: `wrote docs/file-${i}.md` }],
    ['budget_consumed', { level_id, level_cost_usd: 0.001, total_usd: i * 0.001, limit_usd: 5 }],
    ['heartbeat', { level_id, round: i, waiting_ms: 15_000 }],
    ['level_finished', { ok: true, attempt, duration_ms: 1200, cost_usd: 0.01, output_preview: 'done' }],
  ];
  const [kind, payload] = kinds[i % kinds.length]!;
  return { key: `bench-${i}`, agent_role: role, kind, payload };
}

async function appendAll(pool: Pool, queue: QueueStore, ids: EventIds, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const { envelope } = await appendEvent(pool, ids, draft(ids.job_id, i));
    await queue.publish(jobEventsChannel(ids.job_id), JSON.stringify(envelope));
  }
  const { envelope } = await appendEvent(pool, ids, {
    key: 'bench-final',
    agent_role: 'L1.team_lead',
    kind: 'final',
    payload: { agent_message: 'done', summary: `${count} events`, created_files: [] },
  });
  await queue.publish(jobEventsChannel(ids.job_id), JSON.stringify(envelope));
  await pool.query(`UPDATE job_runs SET status = 'completed', finished_at = now() WHERE job_id = $1`, [ids.job_id]);
}

async function startStack(
  workflows: number,
): Promise<Stack & { user: string; streamJob: EventIds; doneJob: EventIds }> {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const schema = `bench_console_${suffix}`;
  const identitySchema = `bench_console_id_${suffix}`;
  const pool = createPool({ dsn: POSTGRES_DSN, max: 8, ssl: false, schema });
  const closers: Array<() => Promise<unknown>> = [
    () => pool.end(),
    () => pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`),
    () => pool.query(`DROP SCHEMA IF EXISTS "${identitySchema}" CASCADE`),
  ];
  const close = async () => {
    for (const fn of closers.reverse()) await fn().catch((err: unknown) => console.error(err));
  };
  try {
    await migrate(pool, schema);
    await migrateIdentity(pool, identitySchema);
    const tables = identityTables(identitySchema);
    const queue = await createQueueStore({ instanceId: `bench-console-${suffix}` });
    closers.push(() => queue.close());
    const api = await startBenchApi({
      pool,
      queue,
      temporal: new Client({ connection: Connection.lazy() }),
      taskQueue: 'bench',
    });
    closers.push(() => api.app.close());

    const bare = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><title>Bare</title><h1 id="bare">A bare static page</h1>');
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => bare.close(resolve)));
    const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`;

    const consolePort = await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const consoleUrl = `http://127.0.0.1:${consolePort}`;
    const identity = await buildAuthApp(
      {
        pool,
        env: authEnv.parse({
          DATABASE_URL: POSTGRES_DSN,
          DATABASE_SCHEMA: identitySchema,
          INGEST_SCHEMA: schema,
          AUTHLIB_SECRET: 'a bench secret that is at least thirty-two characters',
          AUTHLIB_URL: 'http://127.0.0.1:9',
          AUTHLIB_COOKIE_DOMAIN: 'localhost',
          TRUSTED_ORIGINS: consoleUrl,
          IDP_CLIENT_ID: 'unused',
          IDP_CLIENT_SECRET: 'unused',
          IDP_ISSUER_URL: 'http://127.0.0.1:9/unused',
          ADMIN_EMAILS: '',
          KEEL_INSTANCE_ID: `bench-${suffix}`,
        }),
      },
      { logger: false },
    );
    closers.push(() => identity.close());
    const identityUrl = await identity.listen({ host: '127.0.0.1', port: 0 });
    const { token } = await createToken(pool, { userId: 'console', orgId: ORG, isAdmin: true, actsForUsers: true });
    const consoleApp = await buildConsoleApp(
      consoleEnv.parse({ IDENTITY_URL: identityUrl, INGEST_API_URL: api.baseUrl, CONSOLE_API_TOKEN: token }),
      { logger: false },
    );
    closers.push(() => consoleApp.close());
    await consoleApp.listen({ host: '127.0.0.1', port: consolePort });

    const user = await createCredentialUser(pool, tables, {
      email: 'bench@example.test',
      password: PASSWORD,
      role: 'user',
      approved: true,
      defaultBudgetCents: 2_500,
    });
    await seedWorkflows(pool, user.id, workflows);
    const signIn = await fetch(`${consoleUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: consoleUrl },
      body: JSON.stringify({ email: 'bench@example.test', password: PASSWORD }),
    });
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
    const cookies = signIn.headers.getSetCookie().map((cookie) => {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      return { name: pair!.slice(0, eq), value: pair!.slice(eq + 1), url: consoleUrl };
    });
    const streamJob = await seedRunningJob(pool, user.id, `stream-${suffix}`);
    const doneJob = await seedRunningJob(pool, user.id, `done-${suffix}`);
    return {
      consoleUrl,
      bareUrl,
      pool,
      queue,
      cookies,
      apiUrl: api.baseUrl,
      apiToken: token,
      user: user.id,
      streamJob,
      doneJob,
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Spans of the event stream seen by `firstRender` (ms), when the page read one. */
const streamSpans: number[] = [];

/** ms from navigation start until `selector` first appears, in a context of its own (cold) or reused (warm). */
async function firstRender(context: BrowserContext, url: string, selector: string): Promise<number> {
  const page = await context.newPage();
  try {
    await page.addInitScript(firstSeenScript(selector));
    await page.goto(url);
    await page.waitForSelector(selector, { timeout: WAIT_MS });
    await page.waitForFunction('window.__firstSeen !== null', undefined, { timeout: WAIT_MS });
    const seen = await page.evaluate<number>('window.__firstSeen');
    // The event stream's own span (request start to its last byte): what of the wait is the server's.
    const stream = await page.evaluate<number | null>(
      `(() => { const e = performance.getEntriesByType('resource').find((r) => r.name.endsWith('/stream'));
                return e && e.responseEnd > 0 ? e.responseEnd - e.requestStart : null; })()`,
    );
    if (stream !== null) streamSpans.push(stream);
    return seen;
  } finally {
    await page.close();
  }
}

async function renders(
  browser: Browser,
  stack: Stack,
  url: string,
  selector: string,
  runs: number,
): Promise<{ cold: number[]; warm: number[] }> {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies(stack.cookies);
    cold.push(await firstRender(context, url, selector));
    warm.push(await firstRender(context, url, selector));
    await context.close();
  }
  return { cold: cold.sort((a, b) => a - b), warm: warm.sort((a, b) => a - b) };
}

async function frameTimes(page: Page, during: () => Promise<void>): Promise<number[]> {
  await page.evaluate(RECORD_FRAMES);
  await during();
  await page.evaluate('window.__stopFrames = true');
  const frames = await page.evaluate<number[]>('window.__frames');
  return frames.slice(1).sort((a, b) => a - b);
}

async function jsShipped(): Promise<{ files: number; raw: number; gzip: number }> {
  const assets = path.join(DEFAULT_WEB_DIR, 'assets');
  const names = (await fs.readdir(assets)).filter((name) => name.endsWith('.js'));
  let raw = 0;
  let gzip = 0;
  for (const name of names) {
    const bytes = await fs.readFile(path.join(assets, name));
    raw += bytes.length;
    gzip += zlib.gzipSync(bytes, { level: 9 }).length;
  }
  return { files: names.length, raw, gzip };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const median = (sorted: number[]) => percentile(sorted, 0.5);

function frameLine(label: string, frames: number[]): string {
  const long = frames.filter((f) => f > 50).length;
  return (
    `${label.padEnd(34)} frames ${String(frames.length).padStart(5)}  p50 ${ms(percentile(frames, 0.5))}  ` +
    `p95 ${ms(percentile(frames, 0.95))}  p99 ${ms(percentile(frames, 0.99))}  max ${ms(frames[frames.length - 1]!)}  ` +
    `>50 ms: ${long}`
  );
}

async function main(): Promise<void> {
  const workflows = param('workflows', 10_000);
  const events = param('events', 2_000);
  const runs = param('runs', 5);
  const shipped = await jsShipped().catch(() => {
    throw new Error(`no built web app under ${DEFAULT_WEB_DIR}: run npm run build first`);
  });
  const stack = await startStack(workflows);
  const browser = await launchChromium();
  try {
    console.log(
      `console bench: ${workflows} workflows, ${events} events, ${runs} runs per measure, Chromium ${browser.version()}`,
    );
    console.log(`\nJS shipped: ${shipped.files} file(s), ${shipped.raw} bytes raw, ${shipped.gzip} bytes gzip`);

    // A finished job of `events` events for the job page's first render.
    await appendAll(stack.pool, stack.queue, stack.doneJob, events);
    const bare = await renders(browser, stack, stack.bareUrl, '#bare', runs);
    const list = await renders(browser, stack, `${stack.consoleUrl}/workflows`, '.wf-row', runs);
    const job = await renders(browser, stack, `${stack.consoleUrl}/jobs/${stack.doneJob.job_id}`, '.timeline li', runs);
    console.log(`\nfirst render, median of ${runs} (ms from navigation start until the content is in the page)`);
    const row = (label: string, r: { cold: number[]; warm: number[] }) =>
      console.log(
        `  ${label.padEnd(46)} cold ${ms(median(r.cold)).padStart(9)}   warm ${ms(median(r.warm)).padStart(9)}`,
      );
    row('baseline: bare static page (its <h1>)', bare);
    row(`workflow list (first row; ${workflows} workflows)`, list);
    row(`job page (first timeline row; ${events + 1} events)`, job);
    streamSpans.length = 0;
    const jobFull = await renders(
      browser,
      stack,
      `${stack.consoleUrl}/jobs/${stack.doneJob.job_id}`,
      `.timeline li[data-kind="final"]`,
      runs,
    );
    row(`job page (whole timeline replayed to final)`, jobFull);
    const spans = [...streamSpans].sort((a, b) => a - b);
    if (spans.length > 0)
      console.log(`  ${'  of which the stream itself (request to last byte)'.padEnd(46)} ${ms(median(spans))}`);
    const direct: number[] = [];
    const proxied: number[] = [];
    const cookie = stack.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    for (let i = 0; i < runs; i += 1) {
      direct.push(
        await readStream(`${stack.apiUrl}/v1/jobs/${stack.doneJob.job_id}/stream`, {
          authorization: `Bearer ${stack.apiToken}`,
        }),
      );
      proxied.push(await readStream(`${stack.consoleUrl}/api/v1/jobs/${stack.doneJob.job_id}/stream`, { cookie }));
    }
    console.log(
      `  ${'  the same stream read by Node: ingest API'.padEnd(46)} ${ms(median(direct.sort((a, b) => a - b)))}` +
        `   through the console ${ms(median(proxied.sort((a, b) => a - b)))}`,
    );

    // Frame time while the events stream in, beside the bare page's frames over the same span.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies(stack.cookies);
    const page = await context.newPage();
    await page.goto(`${stack.consoleUrl}/jobs/${stack.streamJob.job_id}`);
    await page.getByRole('heading', { name: /^Job / }).waitFor({ timeout: WAIT_MS });
    const started = Date.now();
    const streaming = await frameTimes(page, async () => {
      await appendAll(stack.pool, stack.queue, stack.streamJob, events);
      await page.locator('.timeline li[data-kind="final"]').waitFor({ timeout: WAIT_MS });
    });
    const span = Date.now() - started;
    const barePage = await context.newPage();
    await barePage.goto(stack.bareUrl);
    const idle = await frameTimes(barePage, () => new Promise((resolve) => setTimeout(resolve, span)));
    console.log(`\nframe time over ${(span / 1000).toFixed(1)} s (requestAnimationFrame intervals)`);
    console.log(`  ${frameLine('baseline: bare page, idle', idle)}`);
    console.log(`  ${frameLine(`job page, ${events} events streaming in`, streaming)}`);
    await context.close();
    printJson('console', {
      js_gzip_bytes: shipped.gzip,
      first_render_ms: {
        bare: { cold: median(bare.cold), warm: median(bare.warm) },
        workflow_list: { cold: median(list.cold), warm: median(list.warm) },
        job_page: { cold: median(job.cold), warm: median(job.warm) },
        job_page_to_final: { cold: median(jobFull.cold), warm: median(jobFull.warm) },
      },
      job_page_over_bare_warm_ratio: median(job.warm) / median(bare.warm),
      frame_p99_ms: { bare_idle: percentile(idle, 0.99), streaming: percentile(streaming, 0.99) },
      frame_p99_ratio: percentile(streaming, 0.99) / percentile(idle, 0.99),
    });
  } finally {
    await browser.close();
    await stack.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
