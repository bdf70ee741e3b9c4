// Prints the end-to-end latency of a Keel job next to a bare Temporal baseline of the same shape, measured in the
// same run on the same Temporal dev server (nothing is asserted):
//   1. Keel  POST /v1/chat over loopback HTTP with the default scenario (`build`, which chains to `review`; one child
//            workflow per level run) on the offline demo model, then GET /v1/jobs/:id/stream until `final`;
//   2. bare  client.workflow.execute of bench/bare-workflows.ts `bareJob`: a parent running one child workflow per
//            level of a real job, in sequence, each child running as many activities as that level did (counted
//            from ActivityTaskScheduled events in a real job's child histories), every activity a no-op;
//   3. floor `bareShape`: the job workflow's history floor, a parent running as many no-op children as the job ran,
//            in sequence, with no activities, markers or search attributes (and once with none, for the per-child cost).
// Both workers run in this process on the same connection with the same worker settings, each on its own task
// queue. Jobs run one at a time (no queueing), Keel and bare taking turns, after a warm-up that is not counted.
// Needs PostgreSQL (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end) and Redis (BENCH_REDIS_URL).
// Run: npm run build && node dist/bench/job.js [--n=10] [--warmup=2]  (or BENCH_N, BENCH_WARMUP)
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { Redis } from 'ioredis';
import { buildApp } from '../api/app';
import { streamJobEvents } from '../cli/event-stream';
import { createIdAllocator } from '../db/ids';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { createToken } from '../db/tokens';
import { createQueueStore, queueKeyPrefix } from '../queue/create-queue-store';
import { loadCatalog, loadTeamControls } from '../routing/catalog/load';
import { shippedModelFiles } from '../routing/config';
import { startDemoModelServer } from '../routing/demo-model/server';
import { buildRouter, withDemoAt } from '../routing/open-models';
import { findTemporalCli } from '../temporal/cli-path';
import { devServerDynamicConfigArgs } from '../temporal/dev-server';
import { KEEL_SEARCH_ATTRIBUTES } from '../pure/search-attributes';
import { startKeelWorker } from '../temporal/worker';
import { bareActivities } from './bare-activities';
import type { bareJob, bareShape } from './bare-workflows';
import { param, percentile, printJson } from './measure';
import { deleteKeys } from './redis-keys';
import { runBench, Teardown } from './run-bench';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The prompt of the end-to-end test; the demo model writes one file for it. */
const PROMPT = 'Write hello.md that greets the reader';
/** Deadline of one job (submit to `final`, or execute to result). */
const JOB_TIMEOUT_MS = 120_000;
/** Deadline of every set-up step, history read and teardown step. */
const STEP_TIMEOUT_MS = 60_000;
/** Both workers get these settings; everything else is the SDK's default for both. */
const SHUTDOWN_GRACE = '1 second';
/** STREAM_POLL_MS's and SSE_HEARTBEAT_MS's defaults; events reach the stream live through Redis, not by polling. */
const STREAM_POLL_MS = 2_000;
const HEARTBEAT_MS = 15_000;

/** Settles as `work` does, or rejects once `ms` have passed (the work itself is then left to teardown). */
async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function msSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Other work on the machine shows here; both sides share it, since they take turns. */
const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p90: percentile(sorted, 0.9),
    mean: sorted.reduce((sum, x) => sum + x, 0) / sorted.length,
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
  };
}

/** One child workflow of a job and the activities its history scheduled, by type. */
interface ChildShape {
  workflowId: string;
  activities: number;
  byType: Map<string, number>;
  /** Milliseconds from each workflow or activity task's Scheduled event to its Started event: Temporal's dispatch. */
  dispatchMs: number[];
  /** Events in the execution's history. */
  events: number;
}

interface JobShape {
  /** The parent's own activities (not children's). */
  parent: ChildShape;
  children: ChildShape[];
}

/** Counts ActivityTaskScheduled events in one execution's history; also lists the children it started. */
async function readHistory(client: Client, workflowId: string, runId?: string) {
  const history = await client.withDeadline(Date.now() + STEP_TIMEOUT_MS, () =>
    client.workflow.getHandle(workflowId, runId).fetchHistory(),
  );
  const byType = new Map<string, number>();
  const children: Array<{ workflowId: string; runId: string }> = [];
  const dispatchMs: number[] = [];
  const scheduledAt = new Map<string, number>();
  for (const event of history.events ?? []) {
    const at = Number(event.eventTime?.seconds ?? 0) * 1e3 + (event.eventTime?.nanos ?? 0) / 1e6;
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const type = scheduled.activityType?.name ?? '?';
      byType.set(type, (byType.get(type) ?? 0) + 1);
      scheduledAt.set(String(event.eventId), at);
    }
    if (event.workflowTaskScheduledEventAttributes) scheduledAt.set(String(event.eventId), at);
    const startedFrom =
      event.activityTaskStartedEventAttributes?.scheduledEventId ??
      event.workflowTaskStartedEventAttributes?.scheduledEventId;
    const from = startedFrom === undefined || startedFrom === null ? undefined : scheduledAt.get(String(startedFrom));
    if (from !== undefined) dispatchMs.push(at - from);
    const child = event.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
    if (child?.workflowId && child.runId) children.push({ workflowId: child.workflowId, runId: child.runId });
  }
  const activities = [...byType.values()].reduce((sum, x) => sum + x, 0);
  return { shape: { workflowId, activities, byType, dispatchMs, events: history.events?.length ?? 0 }, children };
}

/** A finished job's shape: for the parent and each child it started (in order), the activities scheduled. */
async function jobShape(client: Client, workflowId: string): Promise<JobShape> {
  const parent = await readHistory(client, workflowId);
  const children: ChildShape[] = [];
  for (const child of parent.children) children.push((await readHistory(client, child.workflowId, child.runId)).shape);
  return { parent: parent.shape, children };
}

const counts = (shape: JobShape) => shape.children.map((c) => c.activities);
const byTypeText = (byType: Map<string, number>) =>
  [...byType.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([type, n]) => `${type}×${n}`)
    .join(' ');

let interrupted = false;

async function main(): Promise<void> {
  const n = param('n', 10);
  const warmup = param('warmup', 2, 0);
  const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const cli = findTemporalCli(process.env.TEMPORAL_CLI_PATH);
  const cliVersion = cli ? execFileSync(cli, ['--version'], { encoding: 'utf8', timeout: 10_000 }).trim() : '';
  console.log(
    `node ${process.version} | ${os.platform()} ${os.arch()} | ${os.cpus().length} CPUs (${os.cpus()[0]?.model})`,
  );
  console.log(
    `temporal CLI ${cli ? `${cli} (${cliVersion})` : 'SDK download'} | load average (1/5/15 min) ${loadAverage()}`,
  );
  console.log(
    `N=${n} jobs per side, sequential, warm-up=${warmup} per side | job deadline ${JOB_TIMEOUT_MS / 1000} s | ` +
      `worker: SDK defaults, shutdownGraceTime ${SHUTDOWN_GRACE} | stream poll ${STREAM_POLL_MS} ms`,
  );

  // Worker and bundler logs at WARN, so the run reads as numbers; before anything creates the runtime.
  Runtime.install({ logger: new DefaultLogger('WARN') });

  // Torn down in reverse order, whatever happens after each step succeeded.
  const teardown = new Teardown();
  process.once('SIGINT', () => (interrupted = true));
  try {
    const temporal = await within(
      STEP_TIMEOUT_MS,
      'starting the Temporal dev server',
      TestWorkflowEnvironment.createLocal({
        server: {
          ...(cli ? { executable: { type: 'existing-path', path: cli } } : {}),
          searchAttributes: KEEL_SEARCH_ATTRIBUTES,
          extraArgs: ['--log-level', 'error', ...devServerDynamicConfigArgs()],
        },
      }),
    );
    teardown.push('temporal', () => temporal.teardown());
    const client = temporal.client;
    const namespace = temporal.namespace ?? 'default';

    const schema = `bench_${runId}`;
    const pool = createPool({ dsn: POSTGRES_DSN, max: 10, ssl: false, schema });
    teardown.push('pool', () => pool.end());
    teardown.push('schema', () => pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    await within(STEP_TIMEOUT_MS, 'migrating', migrate(pool, schema));
    const { rows } = await pool.query<{ server_version: string }>('SHOW server_version');

    const instanceId = `bench-job-${runId}`;
    const queue = await within(
      STEP_TIMEOUT_MS,
      'connecting to Redis',
      createQueueStore({ redisUrl: REDIS_URL, instanceId }),
    );
    teardown.push('redis', () => queue.close());
    // A second connection, only to read the server's version and to delete this run's keys at the end.
    const raw = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 5_000, commandTimeout: 5_000 });
    await raw.connect();
    teardown.push('redis keys', () => deleteKeys(raw, queueKeyPrefix(instanceId)).finally(() => raw.quit()));
    const redisVersion = /redis_version:(\S+)/.exec(await raw.info('server'))?.[1];
    console.log(`PostgreSQL ${rows[0]?.server_version} | Redis ${redisVersion} | all on loopback\n`);

    const demo = await startDemoModelServer();
    teardown.push('demo model', () => demo.close());
    const shipped = shippedModelFiles();
    const catalog = withDemoAt(await loadCatalog(shipped.catalog), demo.baseUrl);
    const controls = await loadTeamControls(shipped.controls);
    // No provider keys: only the offline demo model is configured.
    const models = await buildRouter(catalog, controls, {}, queue, () => undefined);
    const workspaceRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-bench-job-'));
    teardown.push('workspaces', () => fs.rm(workspaceRoot, { recursive: true, force: true }));

    const taskQueue = `bench-keel-${runId}`;
    const app = await buildApp(
      {
        pool,
        queue,
        temporal: client,
        ids: createIdAllocator({ pool, queue }),
        taskQueue,
        models,
        rateLimits: { userPerMinute: 1_000_000, orgPerMinute: 1_000_000 },
        workspaceRoot,
        heartbeatMs: HEARTBEAT_MS,
        streamPollMs: STREAM_POLL_MS,
      },
      { logger: false },
    );
    teardown.push('api', () => app.close());
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    const { token } = await createToken(pool, { userId: 'bench', orgId: 'org-bench', isAdmin: false });

    const bundling = process.hrtime.bigint();
    const keelWorker = await within(
      STEP_TIMEOUT_MS,
      'creating the Keel worker',
      startKeelWorker({
        connection: temporal.nativeConnection,
        namespace,
        taskQueue,
        deps: { pool, queue, models, workspaceRoot },
        // Bundled at start like the bare worker below, so the two start-up times compare like with like.
        workflowCode: 'source',
        shutdownGraceTime: SHUTDOWN_GRACE,
      }),
    );
    teardown.push('Keel worker', () => within(STEP_TIMEOUT_MS, 'stopping the Keel worker', keelWorker.stop()));
    const keelBundleMs = msSince(bundling);

    const bareQueue = `bench-bare-${runId}`;
    const bundlingBare = process.hrtime.bigint();
    const bareWorker = await within(
      STEP_TIMEOUT_MS,
      'creating the bare worker',
      Worker.create({
        connection: temporal.nativeConnection,
        namespace,
        taskQueue: bareQueue,
        workflowsPath: require.resolve('./bare-workflows'),
        activities: bareActivities,
        shutdownGraceTime: SHUTDOWN_GRACE,
      }),
    );
    const bareDone = bareWorker.run();
    // A worker that crashes mid-run rejects here; teardown reports it, instead of an unhandled rejection ending the
    // process before teardown (a job then fails at its deadline).
    bareDone.catch(() => undefined);
    keelWorker.done.catch(() => undefined);
    teardown.push('bare worker', async () => {
      if (bareWorker.getState() === 'RUNNING') bareWorker.shutdown();
      await within(STEP_TIMEOUT_MS, 'stopping the bare worker', bareDone);
    });
    const bareBundleMs = msSince(bundlingBare);
    console.log(
      `workers up (bundling + start): Keel ${keelBundleMs.toFixed(0)} ms, bare ${bareBundleMs.toFixed(0)} ms\n`,
    );

    /** Submits a job over HTTP and reads its stream until `final`; the latency covers both. */
    const runKeel = async (): Promise<{ jobId: string; ms: number }> => {
      const signal = AbortSignal.timeout(JOB_TIMEOUT_MS);
      const started = process.hrtime.bigint();
      const res = await fetch(`${baseUrl}/v1/chat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: PROMPT }),
        signal,
      });
      const body = await res.text();
      if (res.status !== 202) throw new Error(`POST /v1/chat: HTTP ${res.status}: ${body.slice(0, 300)}`);
      const jobId = (JSON.parse(body) as { job_id: string }).job_id;
      for await (const event of streamJobEvents({ baseUrl, token, jobId, signal })) {
        if (event.kind === 'final') return { jobId, ms: msSince(started) };
        if (event.kind === 'error') throw new Error(`job ${jobId} failed: ${JSON.stringify(event.payload)}`);
      }
      throw new Error(`job ${jobId}: the stream ended without a final event`);
    };

    let levels: number[] | undefined;
    /** Executes one bare job of the reference job's shape to its result. */
    const runBare = async (i: number): Promise<{ jobId: string; ms: number }> => {
      const jobId = `bench-bare-${runId}-${i}`;
      const started = process.hrtime.bigint();
      const total = await client.withDeadline(Date.now() + JOB_TIMEOUT_MS, () =>
        client.workflow.execute<typeof bareJob>('bareJob', {
          workflowId: jobId,
          taskQueue: bareQueue,
          args: [levels!],
          workflowExecutionTimeout: JOB_TIMEOUT_MS,
        }),
      );
      const ms = msSince(started);
      const expected = levels!.reduce((sum, x) => sum + x, 0);
      if (total !== expected) throw new Error(`bare job ${jobId} ran ${total} activities, expected ${expected}`);
      return { jobId, ms };
    };

    const keelMs: number[] = [];
    const bareMs: number[] = [];
    const keelJobs: string[] = [];
    const bareJobs: string[] = [];
    let reference: { jobId: string; shape: JobShape } | undefined;
    console.log(`running ${warmup} + ${n} jobs per side…`);
    for (let i = 0; i < warmup + n && !interrupted; i += 1) {
      const record = i >= warmup;
      const keel = async () => {
        const result = await runKeel();
        if (!reference) {
          // The first real job fixes the bare jobs' shape.
          reference = { jobId: result.jobId, shape: await jobShape(client, result.jobId) };
          levels = counts(reference.shape);
          printShape(reference.jobId, reference.shape, record);
        }
        if (record) {
          keelMs.push(result.ms);
          keelJobs.push(result.jobId);
        }
      };
      const bare = async () => {
        const result = await runBare(i);
        if (record) {
          bareMs.push(result.ms);
          bareJobs.push(result.jobId);
        }
      };
      // Taking turns at going first, so neither side always runs right after the other's tail work.
      if (i % 2 === 0) {
        await keel();
        await bare();
      } else {
        await bare();
        await keel();
      }
    }
    if (interrupted) throw new Error('interrupted');

    // Every measured job must have had the reference shape. Their histories also tell how long Temporal took to
    // hand each workflow and activity task to the worker (Scheduled to Started), the floor both sides share.
    const check = async (jobIds: string[]) => {
      const mismatched: string[] = [];
      const dispatchMs: number[] = [];
      const parentEvents: number[] = [];
      const allEvents: number[] = [];
      for (const jobId of jobIds) {
        const shape = await jobShape(client, jobId);
        const got = counts(shape);
        if (got.join() !== levels!.join()) mismatched.push(`${jobId}: [${got.join(', ')}]`);
        for (const execution of [shape.parent, ...shape.children]) dispatchMs.push(...execution.dispatchMs);
        parentEvents.push(shape.parent.events);
        allEvents.push([shape.parent, ...shape.children].reduce((sum, e) => sum + e.events, 0));
      }
      const ok = `${jobIds.length - mismatched.length}/${jobIds.length} had [${levels!.join(', ')}]`;
      const gaps = summary(dispatchMs);
      return {
        shape: mismatched.length ? `${ok}; differing: ${mismatched.join('; ')}` : ok,
        dispatch:
          `${(dispatchMs.length / jobIds.length).toFixed(0)} tasks/job, p50 ${gaps.p50.toFixed(1)} ms, ` +
          `p90 ${gaps.p90.toFixed(1)} ms, mean ${gaps.mean.toFixed(1)} ms`,
        events: `job workflow ${summary(parentEvents).p50}, job with its children ${summary(allEvents).p50} (p50)`,
        parentEvents: summary(parentEvents),
      };
    };
    const keelCheck = await check(keelJobs);
    const bareCheck = await check(bareJobs);
    console.log(`level shape: Keel jobs ${keelCheck.shape}; bare jobs ${bareCheck.shape}`);
    console.log("task dispatch (Scheduled→Started, from the measured jobs' histories):");
    console.log(`  Keel ${keelCheck.dispatch}`);
    console.log(`  bare ${bareCheck.dispatch}`);
    console.log('history events per job:');
    console.log(`  Keel ${keelCheck.events}`);
    console.log(`  bare ${bareCheck.events}`);

    // The floor of the job workflow's history: a parent with the job's children in the same sequential pattern, each a
    // no-op (no activities, no markers, no search attributes), next to the same parent with no child at all.
    const children = reference!.shape.children.length;
    const shapeEvents = async (count: number) => {
      const workflowId = `bench-shape-${runId}-${count}`;
      await client.withDeadline(Date.now() + JOB_TIMEOUT_MS, () =>
        client.workflow.execute<typeof bareShape>('bareShape', {
          workflowId,
          taskQueue: bareQueue,
          args: [count],
          workflowExecutionTimeout: JOB_TIMEOUT_MS,
        }),
      );
      return (await readHistory(client, workflowId)).shape.events;
    };
    const floor = await shapeEvents(children);
    const empty = await shapeEvents(0);
    const perChild = (floor - empty) / Math.max(1, children);
    const keelParent = keelCheck.parentEvents;
    console.log('job workflow history (the parent alone):');
    console.log(
      `  Keel ${keelParent.p50} events (p50; min ${keelParent.min}, max ${keelParent.max}) | floor ${floor}: ${children} ` +
        `no-op children in sequence | no children ${empty} | per sequential child ${perChild.toFixed(1)} | ` +
        `Keel above the floor ${keelParent.p50 - floor}`,
    );
    console.log(
      '  (per child: StartChildWorkflowExecutionInitiated, ChildWorkflowExecutionStarted and its workflow task,',
    );
    console.log('   ChildWorkflowExecutionCompleted and its workflow task, as Temporal writes them for any parent)\n');

    const keel = summary(keelMs);
    const bare = summary(bareMs);
    const line = (name: string, cells: string[]) =>
      console.log(`${name.padEnd(6)} | ${cells.map((x) => x.padStart(8)).join(' | ')}`);
    line('side', ['jobs', 'p50 ms', 'p90 ms', 'mean ms', 'min ms', 'max ms']);
    for (const [name, s] of [
      ['Keel', keel],
      ['bare', bare],
    ] as const) {
      line(name, [String(s.count), ...[s.p50, s.p90, s.mean, s.min, s.max].map((x) => x.toFixed(1))]);
    }
    console.log(
      `\nKeel / bare: p50 ${(keel.p50 / bare.p50).toFixed(2)}x, p90 ${(keel.p90 / bare.p90).toFixed(2)}x, ` +
        `mean ${(keel.mean / bare.mean).toFixed(2)}x`,
    );
    console.log(`load average (1/5/15 min) at the end: ${loadAverage()}`);
    printJson('job', {
      keel: { p50_ms: keel.p50, p90_ms: keel.p90, mean_ms: keel.mean, jobs: keel.count },
      bare: { p50_ms: bare.p50, p90_ms: bare.p90, mean_ms: bare.mean, jobs: bare.count },
      p50_ratio: keel.p50 / bare.p50,
      p90_ratio: keel.p90 / bare.p90,
      mean_ratio: keel.mean / bare.mean,
      job_workflow_events: {
        keel_p50: keelParent.p50,
        floor,
        no_children: empty,
        per_child: perChild,
        children,
        above_floor: keelParent.p50 - floor,
      },
    });
  } finally {
    await teardown.run((name, step) => within(STEP_TIMEOUT_MS, `teardown ${name}`, step));
  }
}

function printShape(jobId: string, shape: JobShape, measured: boolean): void {
  console.log(
    `activities per level: ActivityTaskScheduled events in each child's history of ${jobId}` +
      `${measured ? '' : ' (a warm-up job)'}`,
  );
  const levels = shape.children.map((child) => child.workflowId.slice(jobId.length + 1));
  const width = Math.max(16, ...levels.map((level) => level.length));
  const row = (name: string, activities: number, note: string) =>
    console.log(`  ${name.padEnd(width)} ${String(activities).padStart(3)}  ${note}`);
  shape.children.forEach((child, i) => row(levels[i]!, child.activities, byTypeText(child.byType)));
  const total = shape.children.reduce((sum, c) => sum + c.activities, 0);
  row(`${shape.children.length} children`, total, "(each bare job's children run these counts)");
  row('parent runJob', shape.parent.activities, `${byTypeText(shape.parent.byType)} (the bare parent runs none)`);
  console.log();
}

runBench(main);
