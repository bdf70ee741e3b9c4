// Prints what live model output costs: time to first token (TTFT) and tokens per second of N concurrent streaming
// model calls (default N = 1, 100, 500), through Keel beside a client reading the same vendor stream directly, in one
// run (nothing is asserted; the goal of issue #32 is printed as met or not):
//   direct  N `openai` clients in this process, each streaming one chat completion from the bench vendor
//           (bench/stream-vendor.ts, the chat completions wire with `stream: true`);
//   Keel    N jobs submitted at once (POST /v1/chat) to the API and workers running as production runs them, each a
//           process of its own (dist/stack/api-main.js, worker-main.js) over a Temporal dev server of this run's own,
//           PostgreSQL and Redis. Every job's first model call (its team lead's) goes to the same vendor, and the
//           token travels worker (the `openai` client in callModel) → live channel (Redis) → API → an SSE client
//           here reading `event: delta` on GET /v1/jobs/:id/stream.
// How N calls are made concurrent: the vendor answers each call's headers and role chunk at once and holds its tokens
// until every one of the round's N calls is waiting there (and, for Keel, every SSE client is connected); then all N
// stream, their first tokens spread evenly over one pace interval as independent streams are, a token every --pace ms.
// What is timed, in both arms alike: from the vendor writing a token to the client receiving it, on this process's
// clock (vendor and clients both live here). TTFT is that for the first content token. So it is the latency Keel adds
// to a streamed token; what precedes the first token (submission, Temporal's scheduling of the job and its first
// level, the vendor's own time to first token) is left out on purpose: the held release makes it the same wait in both
// arms, and a job's own latency is bench:job's. A Keel round also subscribes this process to each job's delta channel,
// which splits a token's way into vendor → worker → Redis publish and Redis → API → SSE client.
// 500 concurrent calls through Keel need 5 workers: a worker runs at most 100 activities at once (the Temporal SDK's
// default, which Keel keeps), and each call is one callModel activity; --workers (default 6) leaves room for the
// jobs' other activities. After a round the vendor leaves its answers unfinished and parks any later request, and the
// round's jobs are terminated, so nothing after the measured calls competes with them. On a busy machine: a submission
// answered 503 is retried (and counted); a round whose calls are not all at the vendor within 280 s (under callModel's
// 5-minute deadline) streams those there if at least 90% are, else that level is reported as not measured.
// Also printed: each process's run-queue wait over the window (/proc schedstat: its event loop runnable, no core free),
// the API process's CPU per delta it delivered over each Keel round's streaming window (/proc), and the
// Temporal history events and stored event rows of a job streamed and the same job unstreamed (KEEL_LIVE_OUTPUT off),
// both on the offline demo model, through an API and worker in this process.
// Needs PostgreSQL (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end), Redis (BENCH_REDIS_URL) and the
// Temporal CLI. Run: npm run build && npm run bench:streaming [-- --levels=1,100,500 --tokens=50 --pace=20 --json]
import crypto from 'node:crypto';
import { setMaxListeners } from 'node:events';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createParser } from 'eventsource-parser';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import type { Pool } from 'pg';
import { buildApp } from '../api/app';
import { streamJobMessages } from '../cli/event-stream';
import { createIdAllocator } from '../db/ids';
import { createToken } from '../db/tokens';
import { jobDeltasChannel, liveDeltaBatch, type LiveDelta } from '../events/live-deltas';
import { createQueueStore, queueKeyPrefix } from '../queue/create-queue-store';
import type { QueueStore } from '../queue/queue-store';
import { loadCatalog, loadTeamControls } from '../routing/catalog/load';
import { shippedModelFiles } from '../routing/config';
import { startDemoModelServer } from '../routing/demo-model/server';
import { buildRouter, withDemoAt } from '../routing/open-models';
import { findTemporalCli } from '../temporal/cli-path';
import { startDevServer } from '../temporal/dev-server';
import { setLogLevel } from '../telemetry/logger';
import { startKeelWorker } from '../temporal/worker';
import { cpuMs, freePort, runQueueWaitMs, startKeelProcess, waitHealthy, type KeelProcess } from './keel-processes';
import { param, percentile, printJson } from './measure';
import { deleteKeys } from './redis-keys';
import { runBench, Teardown } from './run-bench';
import { startStreamVendor, type StreamVendor } from './stream-vendor';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PROMPT = 'Write notes.md about durable workflows';
const EventType = proto.api.enums.v1.EventType;
/** How long a round's calls may take to all reach the vendor; callModel's own deadline is 5 minutes. */
const GATHER_TIMEOUT_MS = 280_000;
/** Requests (submissions, terminations) in flight at once. */
const SUBMIT_CONCURRENCY = 8;
/**
 * The idle sample before each Keel round's release: what the processes use with the calls waiting and nothing
 * streaming (the calls' heartbeats, Temporal's polls). Printed for scale, not subtracted: on a busy machine a 2 s
 * sample is too noisy to subtract from the window.
 */
const IDLE_SAMPLE_MS = 2_000;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Marks each token (`t<k>`) in `text` as received at `at`, if not yet; returns how many were new. */
function markTokens(text: string, at: number, into: number[]): number {
  let fresh = 0;
  for (const match of text.matchAll(/t(\d+)/g)) {
    const k = Number(match[1]);
    if (into[k] === undefined) {
      into[k] = at;
      fresh += 1;
    }
  }
  return fresh;
}

async function forEachLimit<T>(items: T[], limit: number, work: (item: T, i: number) => Promise<void>) {
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
}

/** Polls `ready` every 100 ms, printing `progress` every 10 s; fails after `timeoutMs`. */
async function waitUntil(what: string, ready: () => boolean, progress: () => string, timeoutMs: number) {
  const started = Date.now();
  let said = started;
  while (!ready()) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms (${progress()})`);
    if (Date.now() - said >= 10_000) {
      said = Date.now();
      console.log(`  … ${progress()}`);
    }
    await sleep(100);
  }
}

/** One call as its client saw it: when each token arrived (and, for Keel, when it was on the live channel). */
interface Seen {
  tag: string;
  received: number[];
  channel?: number[];
}

/** One SSE client of a job's stream, counting the deltas it is sent and the tokens they carry. */
function openJobStream(baseUrl: string, token: string, jobId: string, tokens: number, seen: Seen) {
  let frames = 0;
  let got = 0;
  let connected!: () => void;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const parser = createParser({
    onEvent(event) {
      connected();
      if (event.event !== 'delta') return;
      frames += 1;
      const delta = JSON.parse(event.data) as LiveDelta;
      if (delta.kind === 'text') got += markTokens(delta.text, now(), seen.received);
      if (got === tokens) finished();
    },
  });
  const url = new URL(`/v1/jobs/${jobId}/stream`, baseUrl);
  const request = http.get(
    {
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      agent: false,
      headers: { authorization: `Bearer ${token}` },
    },
    (res) => {
      // A refused stream never connects: the round then fails at its gathering deadline, saying so.
      if (res.statusCode !== 200) console.error(`GET ${url.pathname}: HTTP ${res.statusCode}`);
      res.setEncoding('utf8');
      res.on('data', (piece: string) => parser.feed(piece));
    },
  );
  request.on('error', () => undefined);
  return { ready, done, frames: () => frames, close: () => request.destroy() };
}

interface ArmResult {
  ttft: number[];
  /** Every token's vendor write → client receipt. */
  lag: number[];
  /** Per call: tokens per second from its first token to its last, at the client. */
  rate: number[];
  /** All tokens received over the round's window (first write to last receipt), per second. */
  totalRate: number;
  complete: number;
  calls: number;
}

function summarize(vendor: StreamVendor, seen: Seen[], tokens: number): ArmResult {
  const ttft: number[] = [];
  const lag: number[] = [];
  const rate: number[] = [];
  let first = Infinity;
  let last = 0;
  let received = 0;
  let complete = 0;
  for (const call of seen) {
    const written = vendor.written.get(call.tag) ?? [];
    const times = call.received;
    for (let k = 0; k < written.length; k += 1) {
      if (times[k] === undefined) continue;
      lag.push(times[k]! - written[k]!);
      received += 1;
      first = Math.min(first, written[k]!);
      last = Math.max(last, times[k]!);
    }
    if (times[0] !== undefined && written[0] !== undefined) ttft.push(times[0] - written[0]);
    const got = times.filter((t) => t !== undefined);
    if (got.length === tokens) {
      complete += 1;
      rate.push((tokens - 1) / ((Math.max(...got) - times[0]!) / 1000));
    }
  }
  for (const list of [ttft, lag, rate]) list.sort((a, b) => a - b);
  return { ttft, lag, rate, totalRate: received / ((last - first) / 1000), complete, calls: seen.length };
}

/** Each token's way split at the live channel: vendor write → this process's subscriber there → the SSE client. */
function splitAtChannel(vendor: StreamVendor, seen: Seen[]) {
  const split = {
    first: { toChannel: [] as number[], toClient: [] as number[] },
    all: { toChannel: [] as number[], toClient: [] as number[] },
  };
  for (const call of seen) {
    const written = vendor.written.get(call.tag) ?? [];
    for (let k = 0; k < written.length; k += 1) {
      const onChannel = call.channel?.[k];
      const received = call.received[k];
      if (onChannel === undefined || received === undefined) continue;
      for (const into of k === 0 ? [split.first, split.all] : [split.all]) {
        into.toChannel.push(onChannel - written[k]!);
        into.toClient.push(received - onChannel);
      }
    }
  }
  for (const list of [split.first.toChannel, split.first.toClient, split.all.toChannel, split.all.toClient])
    list.sort((a, b) => a - b);
  return split;
}

async function directRound(vendor: StreamVendor, n: number, tokens: number): Promise<ArmResult> {
  const client = new OpenAI({ baseURL: vendor.baseUrl, apiKey: 'sk-bench', maxRetries: 0 });
  const controller = new AbortController();
  // Every call listens for the one abort at the end.
  setMaxListeners(n + 10, controller.signal);
  const seen: Seen[] = Array.from({ length: n }, (_, i) => ({ tag: `d${n}-${i}`, received: [] }));
  const calls = seen.map(async (call) => {
    const stream = await client.chat.completions.create(
      {
        model: 'bench-stream',
        messages: [{ role: 'user', content: `bench-call ${call.tag}` }],
        stream: true,
        stream_options: { include_usage: true },
      },
      { signal: controller.signal },
    );
    let got = 0;
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta?.content;
      if (text) got += markTokens(text, now(), call.received);
      if (got === tokens) break;
    }
  });
  try {
    await waitUntil(
      `${n} direct calls at the vendor`,
      () => vendor.waiting() === n,
      () => `${vendor.waiting()}/${n}`,
      GATHER_TIMEOUT_MS,
    );
    await vendor.release();
    await Promise.all(calls);
    return summarize(vendor, seen, tokens);
  } finally {
    controller.abort();
    await Promise.allSettled(calls);
    vendor.reset();
  }
}

interface KeelStack {
  baseUrl: string;
  token: string;
  api: KeelProcess;
  workers: KeelProcess[];
  /** Every job's delta channel, by job id: this process's own view of the live channel, for the split. */
  channels: Map<string, (message: string) => void>;
  temporal: Client;
  /** Submissions answered 503 and retried. */
  retried503: number;
}

interface KeelRound extends ArmResult {
  split: ReturnType<typeof splitAtChannel>;
  apiCpuMs: number;
  workersCpuMs: number;
  /** What the API and the workers used idle, over a window as long as the streaming one. */
  apiIdleMs: number;
  workersIdleMs: number;
  /** Release to the last token received (or the round's deadline). */
  windowMs: number;
  /** Over the window, how long each event loop was runnable but waiting for a core (a worker: their mean). */
  waitMs: { api: number; worker: number; bench: number };
  deltas: number;
  /** Submission of the N jobs to their N calls all waiting at the vendor. */
  gatherMs: number;
}

/**
 * POST /v1/chat, again after a second when the API answers 503 (Temporal did not take the job in time on a busy
 * machine: the API says to retry), up to 5 times; the retries are counted. Each attempt's prompt carries its own tag:
 * a start Temporal took after the API stopped waiting runs a job no client watches, whose call must not count.
 */
async function submit(stack: KeelStack, base: string): Promise<{ jobId: string; tag: string }> {
  for (let attempt = 1; ; attempt += 1) {
    const tag = attempt === 1 ? base : `${base}-retry${attempt}`;
    const res = await fetch(`${stack.baseUrl}/v1/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: `${PROMPT} (bench-call ${tag})` }),
    });
    const body = await res.text();
    if (res.status === 202) return { jobId: (JSON.parse(body) as { job_id: string }).job_id, tag };
    if (res.status !== 503 || attempt === 5)
      throw new Error(`POST /v1/chat: HTTP ${res.status}: ${body.slice(0, 300)}`);
    stack.retried503 += 1;
    await sleep(1_000);
  }
}

async function keelRound(stack: KeelStack, vendor: StreamVendor, n: number, tokens: number): Promise<KeelRound> {
  const seen: Seen[] = Array.from({ length: n }, (_, i) => ({ tag: `k${n}-${i}`, received: [], channel: [] }));
  const jobIds: string[] = [];
  const streams: Array<ReturnType<typeof openJobStream>> = [];
  const gathering = Date.now();
  try {
    await forEachLimit(seen, SUBMIT_CONCURRENCY, async (call, i) => {
      const { jobId, tag } = await submit(stack, call.tag);
      call.tag = tag;
      jobIds[i] = jobId;
      stack.channels.set(jobId, (message) => {
        const at = now();
        for (const delta of liveDeltaBatch.parse(JSON.parse(message))) {
          if (delta.kind === 'text') markTokens(delta.text, at, call.channel!);
        }
      });
      streams[i] = openJobStream(stack.baseUrl, stack.token, jobId, tokens, call);
    });
    let connected = 0;
    for (const stream of streams) void stream.ready.then(() => (connected += 1));
    const tags = new Set(seen.map((call) => call.tag));
    await waitUntil(
      `${n} Keel calls at the vendor`,
      () => vendor.waiting(tags) === n && connected === n,
      () => `${vendor.waiting(tags)}/${n} calls at the vendor, ${connected}/${n} clients connected`,
      GATHER_TIMEOUT_MS,
    ).catch((err: unknown) => {
      // A job or two stuck on a busy machine does not void the round: the calls that are there stream, and the table
      // says how many of N were measured.
      if (vendor.waiting(tags) < n * 0.9) throw err;
      console.log(`  ${(err as Error).message}: releasing the ${vendor.waiting(tags)} calls there`);
    });
    const gatherMs = Date.now() - gathering;
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const cpu = async () => ({
      api: await cpuMs(stack.api.pid),
      workers: sum(await Promise.all(stack.workers.map((w) => cpuMs(w.pid)))),
      apiWait: await runQueueWaitMs(stack.api.pid),
      workersWait: sum(await Promise.all(stack.workers.map((w) => runQueueWaitMs(w.pid)))),
      benchWait: await runQueueWaitMs('self'),
    });
    // What the processes burn with every call waiting and nothing streaming (Temporal polls, heartbeats), per second.
    const idleStart = await cpu();
    await sleep(IDLE_SAMPLE_MS);
    const idleEnd = await cpu();
    const before = await cpu();
    const releasedAt = now();
    await vendor.release();
    // Every token sent has reached its client, or a minute more has passed (a lost delta shows as an incomplete call).
    await Promise.race([Promise.all(streams.map((s) => s.done)), sleep(60_000)]);
    const after = await cpu();
    const windowS = (now() - releasedAt) / 1000;
    const idleS = IDLE_SAMPLE_MS / 1000;
    return {
      ...summarize(vendor, seen, tokens),
      split: splitAtChannel(vendor, seen),
      apiCpuMs: after.api - before.api,
      workersCpuMs: after.workers - before.workers,
      apiIdleMs: ((idleEnd.api - idleStart.api) / idleS) * windowS,
      workersIdleMs: ((idleEnd.workers - idleStart.workers) / idleS) * windowS,
      windowMs: windowS * 1000,
      waitMs: {
        api: after.apiWait - before.apiWait,
        worker: (after.workersWait - before.workersWait) / stack.workers.length,
        bench: after.benchWait - before.benchWait,
      },
      deltas: streams.reduce((sum, s) => sum + s.frames(), 0),
      gatherMs,
    };
  } finally {
    for (const stream of streams) stream?.close();
    stack.channels.clear();
    await forEachLimit(jobIds, SUBMIT_CONCURRENCY, async (jobId) => {
      await stack.temporal.workflow
        .getHandle(jobId)
        .terminate('bench round over')
        .catch(() => undefined);
    });
    vendor.reset();
    // The terminated jobs' calls end when their activities hear of it (a retried call may reach the vendor first).
    await waitUntil(
      "the terminated jobs' calls to end",
      () => vendor.open() === 0,
      () => `${vendor.open()} open`,
      30_000,
    ).catch((err: unknown) => console.log(`  ${(err as Error).message}`));
  }
}

/** One keyed provider on the chat_compat wire: the bench vendor. JSON is YAML, so the files are written as JSON. */
async function writeCatalog(dir: string, baseUrl: string): Promise<{ catalog: string; controls: string }> {
  const catalog = {
    providers: { bench: { wire: 'chat_compat', base_url: baseUrl, auth: { env: 'BENCH_VENDOR_KEY' } } },
    models: [
      {
        provider: 'bench',
        model: 'bench-stream',
        wire: 'chat_compat',
        features: ['tool_use', 'streaming'],
        cost_tier: 'cheap',
        pricing_per_1k: { input: 0.001, output: 0.002 },
        context_tokens: 200_000,
        max_output_tokens: 8192,
        preference: 1,
      },
    ],
  };
  const files = { catalog: path.join(dir, 'catalog.yaml'), controls: path.join(dir, 'controls.yaml') };
  await fs.writeFile(files.catalog, JSON.stringify(catalog));
  await fs.writeFile(files.controls, JSON.stringify({ providers: { bench: {} } }));
  return files;
}

/**
 * Runs the same demo job through an API and worker in this process with streaming on, then off: Temporal history
 * events of the job and its level runs, stored event rows, and deltas on the stream, for each.
 */
async function historyAndRows(pool: Pool, queue: QueueStore, address: string, dir: string, runId: string) {
  const connection = await Connection.connect({ address });
  const native = await NativeConnection.connect({ address });
  const client = new Client({ connection });
  const demo = await startDemoModelServer();
  try {
    const shipped = shippedModelFiles();
    const catalog = withDemoAt(await loadCatalog(shipped.catalog), demo.baseUrl);
    const models = await buildRouter(catalog, await loadTeamControls(shipped.controls), {}, queue, () => undefined);
    const { token } = await createToken(pool, { userId: 'bench-counts', orgId: 'org-bench', isAdmin: false });
    type Counts = { history: number; rows: number; deltas: number; byType: Map<string, number> };
    const counts: Record<'streamed' | 'unstreamed', Counts> = {
      streamed: { history: 0, rows: 0, deltas: 0, byType: new Map() },
      unstreamed: { history: 0, rows: 0, deltas: 0, byType: new Map() },
    };
    for (const side of ['streamed', 'unstreamed'] as const) {
      const taskQueue = `bench-streaming-${side}-${runId}`;
      const deps = { pool, queue, models, workspaceRoot: dir };
      const app = await buildApp(
        {
          ...deps,
          temporal: client,
          ids: createIdAllocator({ pool, queue }),
          taskQueue,
          rateLimits: { userPerMinute: 1_000_000, orgPerMinute: 1_000_000 },
          heartbeatMs: 15_000,
          streamPollMs: 1_000,
        },
        { logger: false },
      );
      const worker = await startKeelWorker({
        connection: native,
        namespace: 'default',
        taskQueue,
        deps: { ...deps, liveOutput: { enabled: side === 'streamed' } },
        shutdownGraceTime: '1 second',
      });
      try {
        const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
        const res = await fetch(`${baseUrl}/v1/chat`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: PROMPT }),
        });
        if (res.status !== 202) throw new Error(`POST /v1/chat: HTTP ${res.status}: ${await res.text()}`);
        const { job_id: jobId } = (await res.json()) as { job_id: string };
        const levels = new Set<string>();
        let last = '';
        for await (const message of streamJobMessages({ baseUrl, token, jobId })) {
          if (message.type === 'delta') counts[side].deltas += 1;
          else {
            last = message.event.kind;
            if (last === 'level_started') levels.add(String(message.event.payload.level_id));
          }
        }
        if (last !== 'final') throw new Error(`the ${side} job ended with ${last}, not final`);
        // `final` is on the stream a moment before the job workflow completes; its last events follow it.
        await client.workflow.getHandle(jobId).result();
        for (const workflowId of [jobId, ...levels]) {
          for (const event of (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? []) {
            const type = EventType[event.eventType ?? 0] ?? String(event.eventType);
            counts[side].history += 1;
            counts[side].byType.set(type, (counts[side].byType.get(type) ?? 0) + 1);
          }
        }
        const { rows } = await pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM job_events WHERE job_id = $1',
          [jobId],
        );
        counts[side].rows = rows[0]!.n;
      } finally {
        await worker.stop();
        await app.close();
      }
    }
    return counts;
  } finally {
    await demo.close();
    await native.close();
    await connection.close();
  }
}

async function main(): Promise<void> {
  const levels = (
    process.argv.find((a) => a.startsWith('--levels='))?.slice(9) ??
    process.env.BENCH_LEVELS ??
    '1,100,500'
  )
    .split(',')
    .map(Number);
  if (levels.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--levels must be positive integers');
  const tokens = param('tokens', 50, 2);
  const paceMs = param('pace', 20);
  const workerCount = param('workers', Math.ceil((Math.max(...levels) * 1.2) / 100));
  const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const loadAverage = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
  console.log(
    `node ${process.version} | ${os.platform()} ${os.arch()} | ${os.cpus().length} CPUs (${os.cpus()[0]?.model})`,
  );
  console.log(
    `levels=${levels.join(',')} concurrent calls | ${tokens} tokens per call, one every ${paceMs} ms ` +
      `(${(1000 / paceMs).toFixed(0)} tokens/s per call) | ${workerCount} worker processes | load average ${loadAverage()}`,
  );
  Runtime.install({ logger: new DefaultLogger('WARN') });
  // The in-process API and worker of the history count log routing notes at warn; the run reads as numbers.
  setLogLevel('error');

  const teardown = new Teardown();
  try {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-bench-streaming-'));
    teardown.push('files', () => fs.rm(dir, { recursive: true, force: true }));
    const cliPath = findTemporalCli(process.env.TEMPORAL_CLI_PATH);
    if (!cliPath) throw new Error('no Temporal CLI (npm run setup installs it)');
    const temporal = await startDevServer({
      cliPath,
      dataDir: path.join(dir, 'temporal'),
      port: await freePort(),
      uiPort: await freePort(),
      namespace: 'default',
    });
    teardown.push('temporal', () => temporal.stop());

    const schema = `bench_streaming_${runId}`;
    const pool = await throwawaySchema(teardown, POSTGRES_DSN, schema, 6);
    const instanceId = `bench-streaming-${runId}`;
    const queue = await createQueueStore({ redisUrl: REDIS_URL, instanceId });
    teardown.push('queue', () => queue.close());
    const raw = new Redis(REDIS_URL, { lazyConnect: true });
    await raw.connect();
    teardown.push('redis keys', () => deleteKeys(raw, queueKeyPrefix(instanceId)).finally(() => raw.quit()));

    console.log('\nthe same job streamed and unstreamed (offline demo model, API and worker in this process)…');
    const counts = await historyAndRows(pool, queue, temporal.address, dir, runId);

    const vendor = await startStreamVendor({ tokens, paceMs });
    teardown.push('vendor', () => vendor.close());
    const files = await writeCatalog(dir, vendor.baseUrl);
    const common = {
      POSTGRES_DSN,
      POSTGRES_SCHEMA: schema,
      REDIS_URL,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: 'default',
      KEEL_INSTANCE_ID: instanceId,
      JOB_QUEUE_KEY: `bench-streaming-${runId}`,
      DATA_DIR: path.join(dir, 'data'),
      WORKSPACE_DIR: path.join(dir, 'workspaces'),
      MODEL_CATALOG_PATH: files.catalog,
      TEAM_CONTROLS_PATH: files.controls,
      BENCH_VENDOR_KEY: 'sk-bench',
      LOG_LEVEL: 'fatal',
    };
    const apiPort = await freePort();
    const api = startKeelProcess('api-main', {
      ...common,
      POSTGRES_POOL_MAX: '10',
      API_PORT: String(apiPort),
      RATE_LIMIT_USER_PER_MINUTE: '1000000',
      RATE_LIMIT_ORG_PER_MINUTE: '1000000',
    });
    teardown.push('api', () => api.stop());
    const baseUrl = `http://127.0.0.1:${apiPort}`;
    const workers: KeelProcess[] = [];
    for (let i = 0; i < workerCount; i += 1) {
      const port = await freePort();
      const worker = startKeelProcess('worker-main', {
        ...common,
        POSTGRES_POOL_MAX: '4',
        WORKER_HTTP_PORT: String(port),
        WORKER_SHUTDOWN_GRACE: '1 second',
        TEMPORAL_SDK_METRICS_PORT: 'off',
        // The round's calls wait at the vendor for the last of them; a held call is not a stalled one.
        KEEL_STREAM_STALL_MS: '600000',
      });
      teardown.push(`worker ${i + 1}`, () => worker.stop());
      workers.push(worker);
      await waitHealthy(worker, `http://127.0.0.1:${port}/healthz`);
    }
    await waitHealthy(api, `${baseUrl}/healthz`);
    const { token } = await createToken(pool, { userId: 'bench', orgId: 'org-bench', isAdmin: false });
    const connection = await Connection.connect({ address: temporal.address });
    teardown.push('temporal client', () => connection.close());
    // One pattern subscription for every job's delta channel (a SUBSCRIBE per job would wait on a busy Redis).
    const channels = new Map<string, (message: string) => void>();
    const subscriber = new Redis(REDIS_URL, { lazyConnect: true });
    await subscriber.connect();
    teardown.push('subscriber', () => subscriber.quit());
    const pattern = `${queueKeyPrefix(instanceId)}${jobDeltasChannel('*')}`;
    const jobOf = new RegExp(`^${queueKeyPrefix(instanceId)}${jobDeltasChannel('(.+)')}$`);
    subscriber.on('pmessage', (_pattern: string, channel: string, message: string) => {
      const jobId = jobOf.exec(channel)?.[1];
      if (jobId) channels.get(jobId)?.(message);
    });
    await subscriber.psubscribe(pattern);
    const stack: KeelStack = {
      baseUrl,
      token,
      api,
      workers,
      channels,
      temporal: new Client({ connection }),
      retried503: 0,
    };

    const rows: Array<{ n: number; direct: ArmResult; keel: KeelRound }> = [];
    for (const n of levels) {
      console.log(`\n${n} concurrent calls: direct…`);
      const direct = await directRound(vendor, n, tokens);
      console.log(`${n} concurrent calls: through Keel (submitting ${n} jobs)…`);
      // A level whose jobs cannot all reach their call in time (a busy machine) is reported, and the run goes on.
      const keel = await keelRound(stack, vendor, n, tokens).catch((err: unknown) => {
        console.log(`  ${n} concurrent calls through Keel not measured: ${(err as Error).message}`);
        return undefined;
      });
      if (!keel) continue;
      if (stack.retried503) console.log(`  submissions retried after a 503 so far: ${stack.retried503}`);
      console.log(
        `  ${n} calls gathered at the vendor in ${(keel.gatherMs / 1000).toFixed(1)} s | load average ${loadAverage()}`,
      );
      rows.push({ n, direct, keel });
    }

    const ms = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(1));
    const p = (list: number[], q: number) => (list.length ? percentile(list, q) : undefined);
    const line = (cells: string[]) =>
      console.log(cells.map((x, i) => (i < 2 ? x.padEnd(7) : x.padStart(10))).join(' | '));
    console.log(
      '\nTTFT and token lag: vendor writes a token → the client has it (ms). tok/s per call: p50 over calls.',
    );
    line(['calls', 'arm', 'complete', 'TTFT p50', 'TTFT p99', 'lag p50', 'lag p99', 'tok/s call', 'tok/s all']);
    for (const { n, direct, keel } of rows) {
      for (const [arm, r] of [
        ['direct', direct],
        ['Keel', keel],
      ] as const) {
        line([
          String(n),
          arm,
          `${r.complete}/${r.calls}`,
          ms(p(r.ttft, 0.5)),
          ms(p(r.ttft, 0.99)),
          ms(p(r.lag, 0.5)),
          ms(p(r.lag, 0.99)),
          ms(p(r.rate, 0.5)),
          r.totalRate.toFixed(0),
        ]);
      }
    }
    console.log('\nKeel − direct, TTFT (ms):');
    for (const { n, direct, keel } of rows) {
      const d50 = p(keel.ttft, 0.5)! - p(direct.ttft, 0.5)!;
      const d99 = p(keel.ttft, 0.99)! - p(direct.ttft, 0.99)!;
      const goal = n === 100 ? ` | goal (p50 ≤ +25, p99 ≤ +100): ${d50 <= 25 && d99 <= 100 ? 'met' : 'NOT met'}` : '';
      console.log(`  ${String(n).padStart(3)} calls: p50 +${ms(d50)}, p99 +${ms(d99)}${goal}`);
    }
    console.log('\nWhere a token spends its time through Keel, split at the live channel (p50 / p99 ms):');
    console.log('  calls | first token: vendor → worker → Redis, Redis → API → client | every token: the same');
    for (const { n, keel } of rows) {
      const pair = (list: number[]) => `${ms(p(list, 0.5))} / ${ms(p(list, 0.99))}`;
      const { first, all } = keel.split;
      console.log(
        `  ${String(n).padStart(5)} | ${pair(first.toChannel)}, ${pair(first.toClient)} | ${pair(all.toChannel)}, ${pair(all.toClient)}`,
      );
    }
    console.log(
      '\nCPU from release to the last token received (/proc, 10 ms ticks), beside the same processes idle over as long:',
    );
    for (const { n, keel } of rows) {
      const tokensIn = keel.lag.length;
      const perDelta = (ms: number) => (keel.deltas ? ((ms * 1000) / keel.deltas).toFixed(0) : '-');
      console.log(
        `  ${String(n).padStart(3)} calls, ${(keel.windowMs / 1000).toFixed(1)} s: API ${keel.apiCpuMs} ms ` +
          `(idle ${keel.apiIdleMs.toFixed(0)}) for ${keel.deltas} deltas sent: ${perDelta(keel.apiCpuMs)} µs per delta, ` +
          `${(tokensIn / Math.max(1, keel.deltas)).toFixed(1)} ` +
          `tokens per delta | workers ${keel.workersCpuMs} ms (idle ${keel.workersIdleMs.toFixed(0)}): ` +
          `${((keel.workersCpuMs * 1000) / Math.max(1, tokensIn)).toFixed(0)} µs per token`,
      );
    }
    console.log(
      '\nRunnable but waiting for a core (run-queue wait of each event loop, /proc schedstat) over that window:',
    );
    for (const { n, keel } of rows) {
      const { api, worker, bench } = keel.waitMs;
      console.log(
        `  ${String(n).padStart(3)} calls: API ${api.toFixed(0)} ms, a worker ${worker.toFixed(0)} ms (mean), ` +
          `this process (vendor and clients) ${bench.toFixed(0)} ms, of ${keel.windowMs.toFixed(0)} ms`,
      );
    }
    const equal = (a: number, b: number) => (a === b ? 'equal' : 'DIFFERENT');
    console.log(
      `\nthe same demo job streamed / unstreamed: Temporal history events (job + level runs) ` +
        `${counts.streamed.history} / ${counts.unstreamed.history} (${equal(counts.streamed.history, counts.unstreamed.history)}), ` +
        `stored event rows ${counts.streamed.rows} / ${counts.unstreamed.rows} (${equal(counts.streamed.rows, counts.unstreamed.rows)}), ` +
        `deltas on its stream ${counts.streamed.deltas} / ${counts.unstreamed.deltas}`,
    );
    // Where the two histories differ, by event type (a workflow task timed out on a busy machine, an activity retried).
    const types = new Set([...counts.streamed.byType.keys(), ...counts.unstreamed.byType.keys()]);
    for (const type of types) {
      const [on, off] = [counts.streamed.byType.get(type) ?? 0, counts.unstreamed.byType.get(type) ?? 0];
      if (on !== off) console.log(`  ${type}: streamed ${on}, unstreamed ${off}`);
    }
    console.log(`load average at the end: ${loadAverage()}`);
    printJson('streaming', {
      tokens,
      pace_ms: paceMs,
      workers: workerCount,
      levels: rows.map(({ n, direct, keel }) => ({
        calls: n,
        direct: { ttft_p50_ms: p(direct.ttft, 0.5), ttft_p99_ms: p(direct.ttft, 0.99), complete: direct.complete },
        keel: { ttft_p50_ms: p(keel.ttft, 0.5), ttft_p99_ms: p(keel.ttft, 0.99), complete: keel.complete },
        keel_tokens_per_s_call_p50: p(keel.rate, 0.5),
        direct_tokens_per_s_call_p50: p(direct.rate, 0.5),
        api_cpu_us_per_delta: keel.deltas ? (keel.apiCpuMs * 1000) / keel.deltas : undefined,
        deltas: keel.deltas,
      })),
      counts: Object.fromEntries(
        Object.entries(counts).map(([side, { history, rows, deltas }]) => [side, { history, rows, deltas }]),
      ),
    });
  } finally {
    await teardown.run();
  }
}

runBench(main);
