import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  runJobToEnd,
  startInfrastructure,
  startKeel,
  testWorkflowBundle,
  type Infrastructure,
  type KeelUnderTest,
} from './harness';
import { uniqueSuffix } from './env';
import { eventually } from './eventually';

let infra: Infrastructure;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  await keel.startWorker();
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
});

/** A Prometheus text exposition as `series{labels}` → value (comments and blank lines dropped). */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*(?:\{[^}]*\})?) (\S+)/.exec(line);
    if (match) samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

async function scrape(baseUrl: string): Promise<Map<string, number>> {
  const response = await fetch(`${baseUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return parseExposition(await response.text());
}

/** Sum of every sample of `name` whose labels include each of `labels`. */
function total(samples: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [series, value] of samples) {
    if (series !== name && !series.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`))) sum += value;
  }
  return sum;
}

test('one job moves the job, level, event, stream, model-call and HTTP series on /metrics, without a token', async () => {
  const before = await scrape(keel.baseUrl);
  const { jobId, events } = await runJobToEnd(keel, 'Write metrics.md that greets the reader');
  expect(events.at(-1)?.kind).toBe('final');
  const after = await scrape(keel.baseUrl);
  const delta = (name: string, labels?: Record<string, string>) =>
    total(after, name, labels) - total(before, name, labels);

  expect(delta('keel_jobs_started_total', { tier: 'default' })).toBe(1);
  expect(delta('keel_jobs_finished_total', { status: 'completed' })).toBe(1);
  const levelsFinished = events.filter((e) => e.kind === 'level_finished');
  expect(delta('keel_level_runs_total')).toBe(levelsFinished.length);
  expect(delta('keel_level_runs_total', { role: 'L4.executor', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
  // Every event of the job was stored once and written to this one stream client once.
  expect(delta('keel_event_append_duration_seconds_count')).toBe(events.length);
  expect(delta('keel_stream_lag_seconds_count')).toBe(events.length);
  const modelCalls = delta('keel_llm_calls_total', { provider: 'demo', outcome: 'ok' });
  expect(modelCalls).toBeGreaterThanOrEqual(levelsFinished.filter((e) => e.payload.provider).length);
  expect(delta('keel_llm_call_duration_seconds_count', { provider: 'demo' })).toBe(modelCalls);
  expect(delta('keel_llm_tokens_total', { provider: 'demo', kind: 'output' })).toBeGreaterThan(0);
  expect(delta('keel_http_requests_total', { service: 'api', method: 'POST', route: '/v1/chat', status: '202' })).toBe(
    1,
  );
  // Route templates, never raw paths: the job id is not a label.
  expect([...after.keys()].some((series) => series.includes(jobId))).toBe(false);
  expect(total(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
});

describe('a worker alone', () => {
  let child: ChildProcess | undefined;
  let dir: string;

  afterEach(async () => {
    child?.kill('SIGKILL');
    await fs.rm(dir, { recursive: true, force: true });
  });

  test("serves /healthz and /metrics with the Temporal SDK's own series beside Keel's, and stops on SIGTERM", async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-worker-'));
    const bundlePath = path.join(dir, 'workflow-bundle.js');
    await fs.writeFile(bundlePath, (await testWorkflowBundle()).code);
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const root = path.resolve(__dirname, '..', '..');
    child = spawn(process.execPath, [path.join(__dirname, 'ts-entry.js'), path.join(root, 'stack', 'worker-main.ts')], {
      env: {
        PATH: process.env.PATH,
        POSTGRES_DSN: infra.db.dsn,
        POSTGRES_SCHEMA: infra.db.schema,
        TEMPORAL_ADDRESS: infra.temporal.address,
        TEMPORAL_NAMESPACE: infra.temporal.namespace ?? 'default',
        JOB_QUEUE_KEY: `keel-worker-alone-${uniqueSuffix()}`,
        WORKFLOW_BUNDLE_PATH: bundlePath,
        DATA_DIR: dir,
        WORKER_HTTP_PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));

    const health = await eventually(
      async () => {
        if (child?.exitCode !== null) throw new Error(`the worker exited:\n${output}`);
        const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
        return answer.status === 200 && answer;
      },
      { what: "the worker's /healthz to answer 200", intervalMs: 100 },
    );
    expect(await health.json()).toEqual({ status: 'ok', worker: 'RUNNING' });

    const metrics = await scrape(`http://127.0.0.1:${port}`);
    const names = [...metrics.keys()];
    expect(names.some((series) => series.startsWith('temporal_'))).toBe(true);
    expect(names.some((series) => series.startsWith('process_cpu_'))).toBe(true);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
