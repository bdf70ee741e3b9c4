// Prints how long the ingest API takes to answer a submission while Temporal cannot be reached, next to a read (which
// never calls Temporal) measured in the same run as the baseline: once with a Temporal address that refuses
// connections from the start, and, when the Temporal CLI is found, once with a dev server that was reached and then
// stopped (the outage the issue measured at 19–22 s), including how soon submissions are accepted after its return.
// Needs PostgreSQL (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end).
// Run: npm run build && node dist/bench/temporal-down.js [--n=10]  (or BENCH_N)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { createToken } from '../db/tokens';
import { createQueueStore } from '../queue/create-queue-store';
import { TEMPORAL_CHANNEL_ARGS } from '../temporal/connection';
import { startDevServer } from '../temporal/dev-server';
import { startBenchApi } from './api';
import { param, percentile, printJson } from './measure';
import { runBench, Teardown } from './run-bench';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const N = param('n', 10);
const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
const TEMPORAL_CLI = process.env.TEMPORAL_CLI ?? path.join(cacheHome, 'keel', 'temporal-cli', 'v1.5.1', 'temporal');

interface Timed {
  status: number;
  ms: number;
  body: string;
}

async function timed(url: string, token: string, method: 'GET' | 'POST', body?: unknown): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, ms: Math.round(performance.now() - started), body: text };
}

function summary(samples: Timed[]) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const statuses = [...new Set(samples.map((s) => s.status))].join(',');
  return { n: samples.length, statuses, p50: percentile(ms, 0.5), max: ms.at(-1)! };
}

async function measure(baseUrl: string, token: string) {
  const submissions: Timed[] = [];
  const reads: Timed[] = [];
  for (let i = 0; i < N; i += 1) {
    submissions.push(await timed(`${baseUrl}/v1/chat`, token, 'POST', { prompt: `bench ${i}` }));
    reads.push(await timed(`${baseUrl}/v1/projects`, token, 'GET'));
  }
  return { submissions, reads };
}

async function main(): Promise<void> {
  const teardown = new Teardown();
  try {
    const suffix = crypto.randomBytes(4).toString('hex');
    const pool = await throwawaySchema(teardown, POSTGRES_DSN, `bench_tdown_${suffix}`, 4);
    const queue = await createQueueStore({ instanceId: `bench-tdown-${suffix}` });
    teardown.push('queue', () => queue.close());
    const { token } = await createToken(pool, { userId: 'bench-user', orgId: 'bench-org', isAdmin: false });
    const jobRows = async () =>
      Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM job_runs')).rows[0]!.n);
    const report: Record<string, unknown> = {};

    // 1. An address nothing listens on (a closed port): refused from the first dial.
    const refused = Connection.lazy({ address: '127.0.0.1:1', channelArgs: TEMPORAL_CHANNEL_ARGS });
    teardown.push('refused connection', () => refused.close());
    const api = await startBenchApi({ pool, queue, temporal: new Client({ connection: refused }), taskQueue: 'b' });
    teardown.push('api (refused)', () => api.app.close());
    const closedPort = await measure(api.baseUrl, token);
    report.closed_port = {
      submission_ms: summary(closedPort.submissions),
      read_ms: summary(closedPort.reads),
      example: closedPort.submissions[0]!.body,
      rows_stored: await jobRows(),
    };

    // 2. A dev server reached once, then stopped, then started again on the same port and data.
    if (fs.existsSync(TEMPORAL_CLI)) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-tdown-'));
      teardown.push('data dir', async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      const port = 20_000 + Math.floor(Math.random() * 20_000);
      const options = { cliPath: TEMPORAL_CLI, dataDir, port, uiPort: port + 1, namespace: 'default' };
      let server = await startDevServer(options);
      teardown.push('dev server', () => server.stop());
      const connection = await Connection.connect({ address: server.address, channelArgs: TEMPORAL_CHANNEL_ARGS });
      teardown.push('connection', () => connection.close());
      const live = await startBenchApi({ pool, queue, temporal: new Client({ connection }), taskQueue: 'b' });
      teardown.push('api (dev server)', () => live.app.close());
      const up = await timed(`${live.baseUrl}/v1/chat`, token, 'POST', { prompt: 'while up' });
      const rowsBefore = await jobRows();
      await server.stop();
      const stopped = await measure(live.baseUrl, token);
      const rowsDuring = await jobRows();
      server = await startDevServer(options);
      const backAt = performance.now();
      let attempts = 0;
      for (;;) {
        attempts += 1;
        const answer = await timed(`${live.baseUrl}/v1/chat`, token, 'POST', { prompt: 'after return' });
        if (answer.status === 202 || performance.now() - backAt > 120_000) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      report.stopped_server = {
        submission_while_up: { status: up.status, ms: up.ms },
        submission_ms: summary(stopped.submissions),
        read_ms: summary(stopped.reads),
        rows_stored_during: rowsDuring - rowsBefore,
        accepted_again_after_return_ms: Math.round(performance.now() - backAt),
        attempts_until_accepted: attempts,
      };
    } else {
      report.stopped_server = `skipped: no Temporal CLI at ${TEMPORAL_CLI}`;
    }
    console.log(JSON.stringify(report, null, 2));
    printJson('temporal-down', report);
  } finally {
    await teardown.run();
  }
}

runBench(main);
