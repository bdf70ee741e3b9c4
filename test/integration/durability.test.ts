import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { demoFileFor } from '../../routing/demo-model/demo-file';
import { startDemoModelServer, type DemoModelServer } from '../../routing/demo-model/server';
import { startGatedModel } from './gated-model';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest, type TestDatabase } from './harness';

let infra: Infrastructure;
let temporal: TestWorkflowEnvironment;
let db: TestDatabase;
let demo: DemoModelServer;
let gate: Awaited<ReturnType<typeof startGatedModel>>;
let keel: KeelUnderTest;

beforeAll(async () => {
  infra = await startInfrastructure();
  ({ temporal, db } = infra);
  demo = await startDemoModelServer();
  gate = await startGatedModel({ upstream: demo.baseUrl, holdLevel: 'L4.executor' });
  keel = await startKeel({ ...infra, demoBaseUrl: gate.baseUrl });
});

afterAll(async () => {
  await keel?.close();
  await gate?.close();
  await demo?.close();
  await infra?.close();
});

test('a worker stopped mid-job is replaced and the job finishes with no duplicate events or files', async () => {
  const first = await keel.startWorker({ shutdownGraceTime: '100 milliseconds' });
  const prompt = 'Write hello.md that greets the reader';
  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt }),
  });
  const { job_id: jobId } = (await response.json()) as { job_id: string };

  // The executor's model call is in flight on the first worker: stop that worker now.
  await gate.reached;
  await first.stop();
  const second = await keel.startWorker();
  gate.release();

  const events: EventEnvelope[] = [];
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) events.push(event);

  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)!.kind).toBe('final');
  const count = (kind: string) => events.filter((e) => e.kind === kind).length;
  // build (L1, L2, L4, L3) chained to review (L2, L4, L3, L2 composed in code): eight level runs, each reported once.
  expect(count('level_finished')).toBe(8);
  expect(count('level_started')).toBe(8);
  // Each executor run reports the file it wrote once, though the first one was retried on another worker.
  expect(count('file_created')).toBe(2);
  expect(count('final')).toBe(1);
  const stored = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM job_events WHERE job_id = $1', [jobId]);
  expect(Number(stored.rows[0]!.n)).toBe(events.length);

  const expected = demoFileFor(prompt);
  const files = await db.pool.query('SELECT path FROM job_files WHERE job_id = $1', [jobId]);
  expect(files.rows).toEqual([{ path: expected.path }]);
  expect(await fs.readdir(path.join(keel.workspaceRoot, jobId))).toEqual([expected.path]);

  // The executor's model call really ran twice: once on the stopped worker, once on its replacement.
  const history = await temporal.client.workflow.getHandle(`${jobId}/L4.executor/1`).fetchHistory();
  const attempts = (history.events ?? [])
    .map((e) => e.activityTaskStartedEventAttributes?.attempt)
    .filter((attempt): attempt is number => typeof attempt === 'number');
  expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
  await second.stop();
});

test('a worker stopped between two levels is replaced and the job finishes with no duplicate events or files', async () => {
  let worker = await keel.startWorker({ shutdownGraceTime: '100 milliseconds' });
  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Write notes.md listing three colours' }),
  });
  const { job_id: jobId } = (await response.json()) as { job_id: string };

  const events: EventEnvelope[] = [];
  let replaced = false;
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId })) {
    events.push(event);
    // The team lead's level has finished and the architect's has not started: swap workers here.
    if (!replaced && event.kind === 'node_finished' && event.agent_role === 'L1.team_lead') {
      replaced = true;
      await worker.stop();
      worker = await keel.startWorker();
    }
  }
  expect(replaced).toBe(true);
  expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
  expect(events.at(-1)!.kind).toBe('final');
  expect(events.filter((e) => e.kind === 'level_finished')).toHaveLength(8);
  const stored = await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM job_events WHERE job_id = $1', [jobId]);
  expect(Number(stored.rows[0]!.n)).toBe(events.length);
  expect(await fs.readdir(path.join(keel.workspaceRoot, jobId))).toEqual(['notes.md']);
  await worker.stop();
});
