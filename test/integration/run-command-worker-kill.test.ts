import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { createQueueStore } from '../../queue/create-queue-store';
import type { QueueStore } from '../../queue/queue-store';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { testRedisUrl, uniqueSuffix } from './env';
import { eventually } from './eventually';
import type { KeelProcess } from './fault-drill-stack';
import { startGatedModel } from './gated-model';
import { alphaCatalog, startWorkerProcess } from './worker-process';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

/**
 * The full-job drill of docs/toolbelt.md's "at most once": a `build-and-test` job whose executor's first `run_command`
 * (`node --test`) is still running when its worker process is SIGKILLed (as a process manager or the OOM killer does).
 * The first worker is a process of its own (dist/stack/worker-main.js, as in production); the second runs in this
 * process. The workspace holds a test file that appends a line to `drill-runs.log` each time it runs and then waits
 * for a `release` file, so the kill lands while the command runs, decided by the marker, not by a clock. The job ends
 * `final`; the killed call is not run again (the model is told so), and the command ran once per call.
 */
let infra: Infrastructure;
let queue: QueueStore;
let demo: DemoModelServer;
let gate: Awaited<ReturnType<typeof startGatedModel>>;
let keel: KeelUnderTest;
let dir: string;
let worker: KeelProcess | undefined;

/** A test file `node --test` finds: one line per run, then it waits for the test to let it go. */
const DRILL_TEST = `
const fs = require('node:fs');
fs.appendFileSync('drill-runs.log', 'ran\\n');
const wait = setInterval(() => { if (fs.existsSync('release')) clearInterval(wait); }, 50);
`;

beforeAll(async () => {
  infra = await startInfrastructure();
  const instanceId = `test-${uniqueSuffix()}`;
  queue = await createQueueStore({ redisUrl: testRedisUrl, instanceId });
  demo = await startDemoModelServer();
  gate = await startGatedModel({ upstream: demo.baseUrl, holdLevel: 'L4.executor' });
  const catalog = alphaCatalog(gate.baseUrl);
  const controls = { providers: { alpha: {} } };
  keel = await startKeel({ ...infra, queue, catalog, controls, providerEnv: { ALPHA_KEY: 'sk-alpha' } });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-command-kill-'));
  worker = await startWorkerProcess({ infra, keel, dir, catalog, controls, instanceId: instanceId });
}, 120_000);

afterAll(async () => {
  await worker?.kill();
  await keel?.close();
  await gate?.close();
  await demo?.close();
  await queue?.close();
  await infra?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

test('a worker SIGKILLed while run_command runs: the job ends final, the killed call is not run again and the model is told', async () => {
  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Write hello.md that greets the reader', scenario: 'build-and-test' }),
  });
  expect(response.status).toBe(202);
  const { job_id: jobId } = (await response.json()) as { job_id: string };
  const events: EventEnvelope[] = [];
  const streamed = (async () => {
    for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);
  })();

  // The executor is about to start: its workspace gets the slow test file that its `node --test` will run.
  await gate.reached;
  const workspace = path.join(keel.workspaceRoot, jobId);
  await fs.mkdir(workspace, { recursive: true });
  await fs.writeFile(path.join(workspace, 'drill.test.js'), DRILL_TEST);
  gate.release();
  const runs = async () =>
    (await fs.readFile(path.join(workspace, 'drill-runs.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean)
      .length;

  // The command is running on the worker process: kill that process, let the orphaned command end, start another.
  await eventually(async () => (await runs()) === 1, { what: 'the first node --test to start', timeoutMs: 120_000 });
  await worker!.kill('SIGKILL');
  worker = undefined;
  await fs.writeFile(path.join(workspace, 'release'), '');
  await keel.startWorker();
  await streamed;

  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)?.kind).toBe('final');
  const executor = events.filter((e) => e.agent_role === 'L4.executor');
  expect(executor.filter((e) => e.kind === 'tool_call').map((e) => e.payload.name)).toEqual([
    'run_command',
    'write_file',
    'run_command',
  ]);
  const results = executor.filter((e) => e.kind === 'tool_result').map((e) => String(e.payload.preview));
  // The retried activity answered from the record: the model reads that the killed call was not run again.
  expect(results[0]).toMatch(/^\$ node --test\s+not run again: an earlier attempt of this call started it/);
  expect(results[2]).toMatch(/^\$ node --test\s+exit code 0 \(/);
  expect(executor.filter((e) => e.kind === 'level_finished')).toHaveLength(1);

  // Each call ran its command once: the killed one (never finished on record) and the one after the write.
  expect(await runs()).toBe(2);
  const { rows } = await infra.db.pool.query<{ run_key: string; finished: boolean }>(
    'SELECT run_key, finished_at IS NOT NULL AS finished FROM command_runs WHERE job_id = $1 ORDER BY started_at',
    [jobId],
  );
  expect(rows).toEqual([
    { run_key: `${jobId}/L4.executor/1#1.1`, finished: false },
    { run_key: `${jobId}/L4.executor/1#3.1`, finished: true },
  ]);
}, 240_000);
