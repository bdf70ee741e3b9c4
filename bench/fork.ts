// Forking a job (docs/fork-and-compare.md) against submitting it again, in one run on one stack (nothing is asserted):
//   fresh  POST /v1/chat with the default scenario (`build`, chained to `review`) on the offline demo model, then the
//          job's stream until `final`;
//   fork   POST /v1/jobs/:id/fork of that job after its second-to-last level run: every level run before the fork
//          point is carried over (its outputs, and its workspace restored from the blob store), only the last runs.
// Both are timed from the request to `final` on the stream, and each reports its model calls (`prompt_sent` events)
// and cost (GET /v1/jobs/:id). Production shape: dist/stack/api-main.js and worker-main.js as processes, a Temporal dev
// server of the bench's own, PostgreSQL (BENCH_POSTGRES_DSN; a throwaway schema) and Redis (BENCH_REDIS_URL). Rounds
// alternate fresh and fork after a warm-up round that is not counted.
// Run: npm run build && node dist/bench/fork.js [--n=5] [--json]
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { streamJobEvents } from '../cli/event-stream';
import { createToken } from '../db/tokens';
import type { EventEnvelope } from '../events/envelope';
import { queueKeyPrefix } from '../queue/create-queue-store';
import { findTemporalCli } from '../temporal/cli-path';
import { startDevServer } from '../temporal/dev-server';
import { freePort, startKeelProcess, waitHealthy } from './keel-processes';
import { param, percentile, printJson } from './measure';
import { deleteKeys } from './redis-keys';
import { runBench, Teardown } from './run-bench';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PROMPT = 'Write hello.md that greets the reader';
const N = param('n', 5);

interface Run {
  ms: number;
  modelCalls: number;
  costUsd: number;
  levelRuns: number;
  events: EventEnvelope[];
}

interface Api {
  baseUrl: string;
  token: string;
}

async function post(api: Api, route: string, body: unknown): Promise<{ job_id: string }> {
  const response = await fetch(`${api.baseUrl}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 202) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { job_id: string };
}

/** Starts a job with `start`, follows its stream to `final`, and reads what it cost. */
async function timedJob(api: Api, start: () => Promise<{ job_id: string }>): Promise<Run & { jobId: string }> {
  const began = process.hrtime.bigint();
  const { job_id: jobId } = await start();
  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: api.baseUrl, token: api.token, jobId })) events.push(event);
  const ms = Number(process.hrtime.bigint() - began) / 1e6;
  if (events.at(-1)?.kind !== 'final') throw new Error(`${jobId} ended with ${events.at(-1)?.kind}`);
  const job = (await (
    await fetch(`${api.baseUrl}/v1/jobs/${jobId}`, { headers: { authorization: `Bearer ${api.token}` } })
  ).json()) as { cost_usd?: number };
  return {
    jobId,
    ms,
    events,
    modelCalls: events.filter((e) => e.kind === 'prompt_sent').length,
    costUsd: job.cost_usd ?? 0,
    levelRuns: events.filter((e) => e.kind === 'level_finished').length,
  };
}

/** The fork point: the second-to-last level run the job finished, so the fork runs only the last one again. */
function forkPoint(events: EventEnvelope[]): string {
  const finished = events.filter((e) => e.kind === 'level_finished').map((e) => String(e.payload.level_id));
  const point = finished.at(-2);
  if (!point) throw new Error('the job finished fewer than two level runs');
  return point;
}

const p50 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

runBench(async () => {
  const runId = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  console.log(
    `node ${process.version} | ${os.cpus().length} CPUs | load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} | ${N} rounds`,
  );
  const teardown = new Teardown();
  try {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-bench-fork-'));
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
    const schema = `bench_fork_${runId}`;
    const pool = await throwawaySchema(teardown, POSTGRES_DSN, schema, 4);
    const instanceId = `bench-fork-${runId}`;
    const raw = new Redis(REDIS_URL, { lazyConnect: true });
    await raw.connect();
    teardown.push('redis keys', () => deleteKeys(raw, queueKeyPrefix(instanceId)).finally(() => raw.quit()));
    // One workspace folder and blob store for both processes, as a shared volume gives them in production.
    const common = {
      POSTGRES_DSN,
      POSTGRES_SCHEMA: schema,
      REDIS_URL,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: 'default',
      KEEL_INSTANCE_ID: instanceId,
      JOB_QUEUE_KEY: `bench-fork-${runId}`,
      DATA_DIR: path.join(dir, 'data'),
      WORKSPACE_DIR: path.join(dir, 'workspaces'),
      LOG_LEVEL: 'fatal',
    };
    const apiPort = await freePort();
    const apiProcess = startKeelProcess('api-main', { ...common, API_PORT: String(apiPort) });
    teardown.push('api', () => apiProcess.stop());
    const workerPort = await freePort();
    const worker = startKeelProcess('worker-main', {
      ...common,
      WORKER_HTTP_PORT: String(workerPort),
      WORKER_SHUTDOWN_GRACE: '1 second',
      TEMPORAL_SDK_METRICS_PORT: 'off',
    });
    teardown.push('worker', () => worker.stop());
    await waitHealthy(worker, `http://127.0.0.1:${workerPort}/healthz`);
    const baseUrl = `http://127.0.0.1:${apiPort}`;
    await waitHealthy(apiProcess, `${baseUrl}/healthz`);
    const { token } = await createToken(pool, { userId: 'bench', orgId: 'org-bench', isAdmin: false });
    const api = { baseUrl, token };

    const fresh: Run[] = [];
    const forks: Run[] = [];
    for (let round = 0; round <= N; round += 1) {
      const source = await timedJob(api, () => post(api, '/v1/chat', { prompt: PROMPT }));
      const from = forkPoint(source.events);
      const fork = await timedJob(api, () =>
        post(api, `/v1/jobs/${source.jobId}/fork`, { from: { level_run_id: from } }),
      );
      if (round === 0) continue; // warm-up
      fresh.push(source);
      forks.push(fork);
    }

    const row = (name: string, runs: Run[]) =>
      `${name} | ${p50(runs.map((r) => r.ms)).toFixed(0)} | ${Math.max(...runs.map((r) => r.ms)).toFixed(0)} | ` +
      `${p50(runs.map((r) => r.levelRuns))} | ${p50(runs.map((r) => r.modelCalls))} | ` +
      `${p50(runs.map((r) => r.costUsd)).toFixed(6)}`;
    console.log('\njob | p50 ms (request to final) | max ms | level_finished events | model calls | cost USD');
    console.log(row('fresh default job', fresh));
    console.log(row('fork after its second-to-last level run', forks));
    console.log(
      `fork / fresh wall time, p50: ${(p50(forks.map((r) => r.ms)) / p50(fresh.map((r) => r.ms))).toFixed(2)}`,
    );
    printJson('fork', {
      n: N,
      fresh_ms_p50: p50(fresh.map((r) => r.ms)),
      fork_ms_p50: p50(forks.map((r) => r.ms)),
      fresh_model_calls: p50(fresh.map((r) => r.modelCalls)),
      fork_model_calls: p50(forks.map((r) => r.modelCalls)),
      fresh_level_runs: p50(fresh.map((r) => r.levelRuns)),
      fork_level_runs: p50(forks.map((r) => r.levelRuns)),
    });
  } finally {
    await teardown.run();
  }
});
