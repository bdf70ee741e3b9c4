// Prints what live job streams cost at scale, next to a bare Fastify SSE endpoint measured in the same run on the same
// events (nothing is asserted). For each level of concurrent clients (default 100, 500 and 1,000):
//   1. the ingest API (GET /v1/jobs/:id/stream), in a process of its own, and
//   2. a bare Fastify SSE endpoint (bench/sse-server.ts), in a process of its own, relaying the same live channel,
// each get the same number of clients spread over J running jobs. This process plays the worker: it appends each
// job's events as the worker's appendEvent does (stored row, then the live channel), E per job every I ms, then
// `final`. It prints, per level and server: emit→client latency p50/p99 (receive time − the event's `occurred_at`, live
// events only), the server's peak RSS while streams were open, and whether every client saw every live sequence
// exactly once and its stream closed after `final`; then the API / bare ratios.
// Needs PostgreSQL (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end) and Redis (BENCH_REDIS_URL).
// Run: npm run build && npm run bench:sse [--levels=100,500,1000] [--jobs=10] [--events=20] [--interval=200] [--json]
// (`-- --help` prints the flags). Each stream is a socket in this process and one in the server: a level of N streams
// needs N + BASE_OPEN_FILES open files per process, which the bench checks first.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { createParser } from 'eventsource-parser';
import type { Pool } from 'pg';
import { createToken } from '../db/tokens';
import type { EventDraft } from '../events/envelope';
import { appendEvent, type EventIds } from '../events/store';
import { jobEventsChannel } from '../events/job-event-feed';
import { createQueueStore } from '../queue/create-queue-store';
import type { QueueStore } from '../queue/queue-store';
import { cpuMs } from './keel-processes';
import { param, percentile, printJson } from './measure';
import { BASE_OPEN_FILES, ensureOpenFiles } from './open-files';
import { runBench, Teardown } from './run-bench';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ORG = 'org-bench-sse';
const USER = 'bench-sse';
const CONNECT_TIMEOUT_MS = 120_000;

const USAGE = `npm run bench:sse -- [flags]
  --levels=100,500,1000  concurrent streams per level (each level runs the API, then the bare endpoint)
  --jobs=10              running jobs the streams are spread over
  --events=20            live events per job after the one stored before the clients connect, then final
  --interval=200         ms between a job's live events (every job emits one per interval)
  --json                 end with one JSON object of the figures
Env: BENCH_POSTGRES_DSN, BENCH_REDIS_URL; BENCH_LEVELS etc. in place of the flags.`;

type Mode = 'api' | 'bare';

interface Server {
  mode: Mode;
  child: ChildProcess;
  port: number;
}

/** Starts a server process and waits for the port it prints. */
async function startServer(mode: Mode, schema: string, instanceId: string): Promise<Server> {
  // With BENCH_CPU_PROF_DIR set, each server writes a V8 CPU profile there when it stops (as bench:streaming's do).
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const profile = profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=sse-${mode}-${Date.now()}.cpuprofile`]
    : [];
  const child = spawn(process.execPath, [...profile, path.join(__dirname, 'sse-server.js')], {
    env: {
      ...process.env,
      SSE_MODE: mode,
      SSE_POSTGRES_DSN: POSTGRES_DSN,
      SSE_SCHEMA: schema,
      SSE_REDIS_URL: REDIS_URL,
      SSE_INSTANCE_ID: instanceId,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  return { mode, child, port };
}

async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** The process's resident set in MB, from /proc. */
async function rssMb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function seedRunningJob(pool: Pool, name: string): Promise<EventIds> {
  const ids = { job_id: `job-${name}`, workflow_id: `wf-${name}`, prompt_id: `pt-${name}` };
  await pool.query(`INSERT INTO workflows (workflow_id, created_by, org_id) VALUES ($1, $2, $3)`, [
    ids.workflow_id,
    USER,
    ORG,
  ]);
  await pool.query(`INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ($1, $2, $3, $4)`, [
    ids.prompt_id,
    ids.workflow_id,
    'Stream me #bench',
    USER,
  ]);
  await pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue, started_at)
     VALUES ($1, $2, $3, 'running', $4, $5, 'bench', now())`,
    [ids.job_id, ids.workflow_id, ids.prompt_id, USER, ORG],
  );
  return ids;
}

/** The i-th event of a busy executor level. */
function draft(jobId: string, i: number): EventDraft {
  const level_id = `${jobId}/L4.executor/1`;
  const kinds: Array<[string, Record<string, unknown>]> = [
    ['prompt_sent', { level_id, round: i, preview: `Round ${i}: write the next file of the plan` }],
    ['thinking', { level_id, round: i, summary: 'Deciding which file to write next and what it should hold.' }],
    ['tool_call', { level_id, call_id: `call-${i}`, name: 'write_file' }],
    ['file_created', { path: `docs/file-${i}.md`, sha256: 'a'.repeat(64), size_bytes: 1200 + i }],
    ['tool_result', { level_id, call_id: `call-${i}`, preview: `wrote docs/file-${i}.md` }],
  ];
  const [kind, payload] = kinds[i % kinds.length]!;
  return { key: `bench-${i}`, agent_role: 'L4.executor', kind, payload };
}

const FINAL: EventDraft = {
  key: 'bench-final',
  agent_role: 'L1.team_lead',
  kind: 'final',
  payload: { agent_message: 'done', summary: 'bench', created_files: [] },
};

async function emit(pool: Pool, queue: QueueStore, ids: EventIds, event: EventDraft): Promise<void> {
  const { envelope } = await appendEvent(pool, ids, event);
  await queue.publish(jobEventsChannel(ids.job_id), JSON.stringify(envelope));
}

/** One SSE client: resolves `ready` on its first frame, `done` when the server ends the stream. */
interface StreamClient {
  ready: Promise<void>;
  done: Promise<void>;
  /** Sequences of live data frames, in arrival order. */
  sequences: number[];
  /** Receive time − occurred_at (ms) of each live frame. */
  latencies: number[];
  /** Why the stream failed before it ended: `http 503`, the socket error's code. */
  failure?: string;
  /** The comment the server ended the stream with, other than heartbeats (`keel could not go on reading...`). */
  closingComment?: string;
  close(): void;
}

/** Why a client's stream was not lossless: its failure, else what its sequences lack. */
function verdict(client: StreamClient, settled: PromiseSettledResult<void>, expected: number[]): string | undefined {
  if (settled.status !== 'fulfilled') return client.failure ?? 'error';
  const got = client.sequences;
  if (got.join(',') === expected.join(',')) return undefined;
  if (client.closingComment) return `ended early: "${client.closingComment}"`;
  if (new Set(got).size !== got.length) return 'a sequence twice';
  if (got.some((sequence, i) => i > 0 && sequence < got[i - 1]!)) return 'out of order';
  return got.length < expected.length ? 'sequences missing' : 'unexpected sequences';
}

function openClient(agent: http.Agent, port: number, jobId: string, headers: Record<string, string>): StreamClient {
  const sequences: number[] = [];
  const latencies: number[] = [];
  const client: StreamClient = { ready: undefined!, done: undefined!, sequences, latencies, close: () => undefined };
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let request: http.ClientRequest | undefined;
  const done = new Promise<void>((resolve, reject) => {
    const parser = createParser({
      onEvent(event) {
        // The wall clock, as `occurred_at` is (appendEvent's `new Date()`, in this same process): the monotonic clock
        // (performance.now) drifted from it by 0.6% on a machine of this bench, seconds over a run.
        const received = Date.now();
        markReady();
        if (event.event === 'ready') return;
        const envelope = JSON.parse(event.data) as { sequence: number; occurred_at: string };
        // Sequence 1 is each job's stored backlog, read on connect; what is measured is the live path.
        if (envelope.sequence === 1) return;
        sequences.push(envelope.sequence);
        latencies.push(received - Date.parse(envelope.occurred_at));
      },
      onComment(comment) {
        if (comment.trim() !== 'heartbeat') client.closingComment = comment.trim();
      },
    });
    request = http.get(
      {
        host: '127.0.0.1',
        port,
        path: `/v1/jobs/${jobId}/stream`,
        agent,
        headers: { accept: 'text/event-stream', ...headers },
      },
      (res) => {
        if (res.statusCode !== 200) {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => {
            const code = /"code":"([^"]+)"/.exec(body)?.[1];
            client.failure = `http ${res.statusCode}${code ? ` ${code}` : ''}`;
            reject(new Error(`stream answered ${res.statusCode}: ${body}`));
          });
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => parser.feed(chunk));
        res.on('end', () => resolve());
        res.on('error', reject);
      },
    );
    request.on('error', (err: NodeJS.ErrnoException) => {
      client.failure ??= err.code ?? err.message;
      reject(err);
    });
  });
  void done.catch(() => markReady());
  return Object.assign(client, { ready, done, close: () => request?.destroy() });
}

interface LevelResult {
  clients: number;
  p50: number;
  p99: number;
  rssMb: number;
  /** The server's RSS just before this level's clients connected. */
  idleRssMb: number;
  /** (peak − idle RSS) per stream, KB. */
  kbPerStream: number;
  /** The server's CPU (user + system) from the first connect until every client had its first frame, per stream, µs. */
  cpuUsPerConnect: number;
  /** The server's CPU from then until every stream closed, per live frame the clients received, µs. */
  cpuUsPerFrame: number;
  frames: number;
  /** Clients that did not see every live sequence exactly once, in order, with the stream closed after final. */
  failedClients: number;
  /** How many clients failed, by reason (`http 503`, `sequences missing`, ...). */
  failures: Record<string, number>;
  /** The 1-minute load average when the level started and when it ended. */
  load: [number, number];
}

async function runLevel(
  server: Server,
  pool: Pool,
  queue: QueueStore,
  token: string,
  runId: string,
  { clients, jobs, events, interval }: { clients: number; jobs: number; events: number; interval: number },
): Promise<LevelResult> {
  const tag = `${server.mode}-${clients}-${runId}`;
  const jobIds: EventIds[] = [];
  for (let j = 0; j < jobs; j += 1) {
    const ids = await seedRunningJob(pool, `${tag}-${j}`);
    // One stored event before anyone connects: each API stream replays it, which tells the client its feed is live.
    await emit(pool, queue, ids, draft(ids.job_id, 0));
    jobIds.push(ids);
  }
  const load0 = os.loadavg()[0]!;
  const idleRss = await rssMb(server.child.pid!);
  const cpu0 = await cpuMs(server.child.pid!);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const streams = Array.from({ length: clients }, (_, i) =>
    openClient(agent, server.port, jobIds[i % jobs]!.job_id, { authorization: `Bearer ${token}` }),
  );
  let peakRss = 0;
  try {
    const connected = Promise.all(streams.map((s) => s.ready));
    const timeout = new Promise((_, reject) =>
      setTimeout(() => reject(new Error(`${tag}: clients not connected in time`)), CONNECT_TIMEOUT_MS).unref(),
    );
    await Promise.race([connected, timeout]);
    const cpu1 = await cpuMs(server.child.pid!);
    // Bare clients are live once subscribed; the API's replay of sequence 1 comes after its subscription.
    peakRss = Math.max(peakRss, await rssMb(server.child.pid!));
    for (let i = 1; i < events; i += 1) {
      const round = performance.now();
      await Promise.all(jobIds.map((ids) => emit(pool, queue, ids, draft(ids.job_id, i))));
      peakRss = Math.max(peakRss, await rssMb(server.child.pid!));
      const wait = interval - (performance.now() - round);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    await Promise.all(jobIds.map((ids) => emit(pool, queue, ids, FINAL)));
    const results = await Promise.race([
      Promise.allSettled(streams.map((s) => s.done)),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`${tag}: streams did not close after final`)), CONNECT_TIMEOUT_MS).unref(),
      ),
    ]);
    const cpu2 = await cpuMs(server.child.pid!);
    const expected = Array.from({ length: events }, (_, i) => i + 2);
    const failures: Record<string, number> = {};
    for (const [i, s] of streams.entries()) {
      const reason = verdict(s, results[i]!, expected);
      if (reason) failures[reason] = (failures[reason] ?? 0) + 1;
    }
    const latencies = streams.flatMap((s) => s.latencies).sort((a, b) => a - b);
    return {
      clients,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      rssMb: peakRss,
      idleRssMb: idleRss,
      kbPerStream: ((peakRss - idleRss) * 1024) / clients,
      cpuUsPerConnect: ((cpu1 - cpu0) * 1000) / clients,
      cpuUsPerFrame: ((cpu2 - cpu1) * 1000) / Math.max(1, latencies.length),
      frames: latencies.length,
      failedClients: Object.values(failures).reduce((a, b) => a + b, 0),
      failures,
      load: [load0, os.loadavg()[0]!],
    };
  } finally {
    for (const s of streams) s.close();
    agent.destroy();
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--help')) {
    console.log(USAGE);
    return;
  }
  const levels = (
    process.argv.find((a) => a.startsWith('--levels='))?.slice(9) ??
    process.env.BENCH_LEVELS ??
    '100,500,1000'
  )
    .split(',')
    .map(Number);
  if (levels.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--levels must be positive integers');
  const jobs = param('jobs', 10);
  const events = param('events', 20, 2);
  const interval = param('interval', 200, 0);
  const most = Math.max(...levels);
  ensureOpenFiles(most + BASE_OPEN_FILES, `${most} streams`);
  const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  console.log(
    `node ${process.version} | ${os.platform()} ${os.arch()} | ${os.cpus().length} CPUs (${os.cpus()[0]?.model})`,
  );
  console.log(
    `levels=${levels.join(',')} clients | J=${jobs} jobs | E=${events} live events per job every ${interval} ms, then final`,
  );

  const teardown = new Teardown();
  try {
    const schema = `bench_sse_${runId}`;
    const pool = await throwawaySchema(teardown, POSTGRES_DSN, schema, 20);
    const instanceId = `bench-sse-${runId}`;
    const queue = await createQueueStore({ redisUrl: REDIS_URL, instanceId });
    teardown.push('redis', () => queue.close());
    const { token } = await createToken(pool, { userId: USER, orgId: ORG, isAdmin: false });
    const servers: Record<Mode, Server> = {
      api: await startServer('api', schema, instanceId),
      bare: await startServer('bare', schema, instanceId),
    };
    teardown.push('api server', () => stopServer(servers.api));
    teardown.push('bare server', () => stopServer(servers.bare));

    const rows: Array<{ level: number; api: LevelResult; bare: LevelResult }> = [];
    for (const clients of levels) {
      const settings = { clients, jobs, events, interval };
      // Each level measures the API, then the bare endpoint, on the same schedule of events.
      const api = await runLevel(servers.api, pool, queue, token, runId, settings);
      const bare = await runLevel(servers.bare, pool, queue, token, runId, settings);
      rows.push({ level: clients, api, bare });
    }

    const line = (cells: string[]) =>
      console.log(cells.map((x, i) => (i === 0 ? x.padEnd(14) : x.padStart(9))).join(' | '));
    console.log('');
    line([
      'server',
      'clients',
      'frames',
      'p50 ms',
      'p99 ms',
      'RSS MB',
      'KB/stream',
      'µs/connect',
      'µs/frame',
      'load',
      'lossless',
    ]);
    for (const { api, bare } of rows) {
      for (const [name, r] of [
        ['Keel API', api],
        ['bare Fastify', bare],
      ] as const) {
        line([
          name,
          String(r.clients),
          String(r.frames),
          r.p50.toFixed(1),
          r.p99.toFixed(1),
          r.rssMb.toFixed(0),
          r.kbPerStream.toFixed(1),
          r.cpuUsPerConnect.toFixed(0),
          r.cpuUsPerFrame.toFixed(0),
          r.load.map((x) => x.toFixed(1)).join('→'),
          r.failedClients === 0 ? 'yes' : `no (${r.failedClients})`,
        ]);
      }
    }
    console.log('');
    for (const { level, api, bare } of rows) {
      console.log(
        `${level} clients: API / bare p50 ${(api.p50 / bare.p50).toFixed(2)}x, p99 ${(api.p99 / bare.p99).toFixed(2)}x; ` +
          `API RSS ${api.rssMb.toFixed(0)} MB; API lossless ${api.failedClients === 0 ? 'yes' : 'no'}`,
      );
      for (const [name, r] of [
        ['API', api],
        ['bare', bare],
      ] as const) {
        const reasons = Object.entries(r.failures).map(([reason, n]) => `${n} ${reason}`);
        if (reasons.length > 0) console.log(`  ${name} clients not lossless: ${reasons.join(', ')}`);
      }
    }
    printJson('sse', {
      levels: rows.map(({ level, api, bare }) => ({
        clients: level,
        api_p50_ms: api.p50,
        api_p99_ms: api.p99,
        bare_p50_ms: bare.p50,
        bare_p99_ms: bare.p99,
        p50_ratio: api.p50 / bare.p50,
        p99_ratio: api.p99 / bare.p99,
        api_rss_mb: api.rssMb,
        bare_rss_mb: bare.rssMb,
        api_kb_per_stream: api.kbPerStream,
        bare_kb_per_stream: bare.kbPerStream,
        api_cpu_us_per_connect: api.cpuUsPerConnect,
        bare_cpu_us_per_connect: bare.cpuUsPerConnect,
        api_cpu_us_per_frame: api.cpuUsPerFrame,
        bare_cpu_us_per_frame: bare.cpuUsPerFrame,
        api_lossless: api.failedClients === 0,
        bare_lossless: bare.failedClients === 0,
        api_failures: api.failures,
        bare_failures: bare.failures,
        load_api: api.load,
        load_bare: bare.load,
      })),
    });
  } finally {
    await teardown.run();
  }
}

runBench(main);
