import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import type { Pool } from 'pg';
import { migrate } from '../../db/migrate';
import { createPool } from '../../db/pool';
import { createToken } from '../../db/tokens';
import { bundleBuildId } from '../../temporal/versioning';
import { workflowTracingSinks } from '../../temporal/worker';
import { bundleWorkflows } from '../../temporal/workflow-code';
import { eventually } from './eventually';
import { quietTemporalLogs } from './shared-services';
import {
  freePort,
  startKeelProcess,
  startPostgresCluster,
  startRedis,
  startTemporalServer,
  type KeelProcess,
  type PostgresCluster,
  type RedisServer,
  type TemporalServer,
} from './fault-drill-stack';

/*
 * The deploy drill (docs/deployment.md, "Deploying workflow changes"): jobs paused on a question while their workers
 * are stopped and a release whose job workflow no paused job can replay is deployed. Workers run pinned
 * (KEEL_WORKER_VERSIONING=pinned), as separate processes from dist/ over this file's own PostgreSQL, Redis and Temporal,
 * as in production. Every paused job must finish on the version it started on, with no workflow task failing, while a
 * job started after the deploy runs the new release.
 */

const SCHEMA = 'keel';
const PAUSED_JOBS = 20;
const EventType = temporal.api.enums.v1.EventType;

let dir: string;
let pg: PostgresCluster;
let redis: RedisServer;
let temporalServer: TemporalServer;
let pool: Pool;
let connection: Connection;
let client: Client;
let token: string;
let env: Record<string, string>;
let baseUrl: string;
const processes: KeelProcess[] = [];
/** The release the paused jobs start on (today's bundle) and the changed one deployed under them. */
let oldBundle: string;
let newBundle: string;

beforeAll(async () => {
  quietTemporalLogs();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-deploy-drill-'));
  oldBundle = path.resolve(__dirname, '../../dist/workflow-bundle.js');
  newBundle = path.join(dir, 'changed-workflow-bundle.js');
  const [services] = await Promise.all([
    Promise.all([startPostgresCluster(), startRedis(), startTemporalServer(path.join(dir, 'temporal'))]),
    bundleWorkflows(require.resolve('./changed-workflows')).then((code) => fs.writeFileSync(newBundle, code)),
  ]);
  [pg, redis, temporalServer] = services;
  pool = createPool({ dsn: pg.dsn, max: 4, ssl: false, schema: SCHEMA });
  await migrate(pool, SCHEMA);
  ({ token } = await createToken(pool, { userId: 'dev', orgId: 'org-deploy', isAdmin: true }));
  connection = await Connection.connect({ address: temporalServer.address });
  client = new Client({ connection });
  baseUrl = `http://127.0.0.1:${await freePort()}`;
  env = {
    POSTGRES_DSN: pg.dsn,
    POSTGRES_SCHEMA: SCHEMA,
    POSTGRES_POOL_MAX: '10',
    REDIS_URL: redis.url,
    TEMPORAL_ADDRESS: temporalServer.address,
    KEEL_INSTANCE_ID: 'deploy',
    DATA_DIR: path.join(dir, 'data'),
    WORKSPACE_DIR: path.join(dir, 'workspaces'),
    WORKER_SHUTDOWN_GRACE: '1 second',
    API_PORT: new URL(baseUrl).port,
    RATE_LIMIT_USER_PER_MINUTE: '100000',
    RATE_LIMIT_ORG_PER_MINUTE: '100000',
    LOG_LEVEL: 'fatal',
  };
  const api = startKeelProcess('api-main', env);
  processes.push(api);
  await eventually(
    async () => {
      if (!api.alive()) throw new Error(`the API exited:\n${api.output()}`);
      return (await fetch(`${baseUrl}/healthz`)).ok;
    },
    { what: 'the API', intervalMs: 200 },
  );
}, 240_000);

afterAll(async () => {
  for (const p of processes) await p.kill();
  await connection?.close();
  await temporalServer?.stop();
  await redis?.stop();
  await pool?.end();
  await pg?.destroy();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

/**
 * A pinned worker process on `bundle`, resolved once it polls: its `/healthz` answers 200 only after the worker runs,
 * which (KEEL_WORKER_PROMOTE on) is after its version was made current or found older than the current one.
 */
async function startWorker(bundle: string): Promise<KeelProcess> {
  const port = await freePort();
  const worker = startKeelProcess('worker-main', {
    ...env,
    WORKFLOW_BUNDLE_PATH: bundle,
    KEEL_WORKER_VERSIONING: 'pinned',
    WORKER_HTTP_PORT: String(port),
  });
  processes.push(worker);
  await eventually(
    async () => {
      if (!worker.alive()) throw new Error(`the worker exited:\n${worker.output()}`);
      return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
    },
    { what: `the worker on ${path.basename(bundle)}`, intervalMs: 200 },
  );
  return worker;
}

async function post(route: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status >= 300) throw new Error(`${route} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Answers that the API answered 503 `job_unresponsive` and the drill sent again, as a client is told to. */
let retriedAnswers = 0;

/**
 * Answers a job's question as a client does: a 503 `job_unresponsive` (the job did not take it within the API's
 * deadline, which a freshly started worker replaying twenty jobs on a loaded machine can miss) is sent again; a 409
 * then says an earlier attempt was taken after all.
 */
async function answer(jobId: string, callId: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(`${baseUrl}/v1/jobs/${jobId}/resume`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ call_id: callId, answer: 'friendly' }),
    });
    const body = (await response.json()) as { error?: { code: string } };
    if (response.status < 300) return;
    if (attempt > 1 && response.status === 409) return;
    if (response.status !== 503 || body.error?.code !== 'job_unresponsive' || attempt === 5) {
      throw new Error(`resume of ${jobId} answered ${response.status}: ${JSON.stringify(body)}`);
    }
    retriedAnswers += 1;
  }
}

/** The `ask_user` call each job waits on, once every job is paused on one. */
async function pendingQuestions(jobIds: string[]): Promise<Map<string, string> | false> {
  const { rows } = await pool.query<{ job_id: string; call_id: string }>(
    `SELECT r.job_id, e.envelope->'payload'->>'call_id' AS call_id
       FROM ${SCHEMA}.job_runs r JOIN ${SCHEMA}.job_events e ON e.job_id = r.job_id AND e.kind = 'ask_user'
      WHERE r.job_id = ANY($1) AND r.status = 'paused'`,
    [jobIds],
  );
  return rows.length === jobIds.length && new Map(rows.map((r) => [r.job_id, r.call_id]));
}

async function finished(jobIds: string[]): Promise<boolean> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${SCHEMA}.job_events WHERE job_id = ANY($1) AND kind = 'final'`,
    [jobIds],
  );
  return rows[0]!.n === jobIds.length;
}

/** The build id a workflow runs on, from the server's versioning info. */
async function buildIdOf(workflowId: string): Promise<string | undefined> {
  const { raw } = await client.workflow.getHandle(workflowId).describe();
  return raw.workflowExecutionInfo?.versioningInfo?.deploymentVersion?.buildId ?? undefined;
}

test('jobs paused on ask_user finish on the version they started on after a release they cannot replay is deployed', async () => {
  const startedAt = Date.now();
  const phases: string[] = [];
  const phase = (name: string) => phases.push(`${name} at ${Math.round((Date.now() - startedAt) / 1000)} s`);
  const oldId = bundleBuildId(fs.readFileSync(oldBundle));
  const newId = bundleBuildId(fs.readFileSync(newBundle));
  expect(newId).not.toBe(oldId);
  const deploymentName = 'keel-jobs-deploy';
  const describe = async () =>
    (await connection.workflowService.describeWorkerDeployment({ namespace: 'default', deploymentName }))
      .workerDeploymentInfo!;

  // Today's release: one pinned worker, made current by itself, and 20 jobs each paused on its question.
  let oldWorker = await startWorker(oldBundle);
  expect((await describe()).routingConfig?.currentDeploymentVersion?.buildId).toBe(oldId);
  const jobIds: string[] = [];
  for (let i = 0; i < PAUSED_JOBS; i++) {
    const answer = await post('/v1/chat', { prompt: `Write paused-${i}.md that greets the reader #ask` });
    jobIds.push(answer.job_id as string);
  }
  const questions = await eventually(() => pendingQuestions(jobIds), {
    what: `${PAUSED_JOBS} jobs paused on ask_user`,
    timeoutMs: 120_000,
    intervalMs: 500,
  });

  phase('paused');
  // The deploy: every worker stops, the changed release starts and becomes current, and the old release's worker
  // starts again beside it to drain the jobs pinned to it (and does not take the current version back).
  await oldWorker.kill('SIGTERM');
  await startWorker(newBundle);
  oldWorker = await startWorker(oldBundle);
  const deployed = await describe();
  expect(deployed.routingConfig?.currentDeploymentVersion?.buildId).toBe(newId);
  const oldSummary = deployed.versionSummaries?.find((v) => v.deploymentVersion?.buildId === oldId);
  expect(oldSummary?.status).toBe(
    temporal.api.enums.v1.WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINING,
  );

  phase('deployed');
  // A job started after the deploy takes the new release.
  const after = (await post('/v1/chat', { prompt: 'Write after.md that greets the reader' })).job_id as string;

  // The answers: every paused job resumes and reaches `final`.
  await Promise.all(jobIds.map((jobId) => answer(jobId, questions.get(jobId)!)));
  await eventually(() => finished([...jobIds, after]), {
    what: `${PAUSED_JOBS + 1} jobs ending with final`,
    timeoutMs: 240_000,
    intervalMs: 500,
  });

  phase('finished');
  // Each paused job, and every level it ran, stayed on the old version; the new job ran the new one.
  for (const jobId of jobIds) expect(await buildIdOf(jobId)).toBe(oldId);
  expect(await buildIdOf(after)).toBe(newId);
  const afterHistory = await client.workflow.getHandle(after).fetchHistory();
  expect(afterHistory.events?.some((e) => e.eventType === EventType.EVENT_TYPE_TIMER_STARTED)).toBe(true);

  // No workflow task failed anywhere (no non-determinism, nor any other workflow task error), and every level ran on
  // its job's version: children are named `<job>/<level>/<attempt>`, so the after-deploy job's tree is all that is new.
  const executions = [];
  for await (const execution of client.workflow.list()) executions.push(execution);
  const failures: string[] = [];
  const misplaced: string[] = [];
  await Promise.all(
    executions.map(async (execution) => {
      const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
      for (const event of history.events ?? []) {
        if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED) {
          failures.push(`${execution.workflowId}: ${event.workflowTaskFailedEventAttributes?.failure?.message}`);
        }
      }
      // Describe, not the list's entry: visibility records leave versioning info out.
      const buildId = await buildIdOf(execution.workflowId);
      const expected = execution.workflowId.startsWith(after) ? newId : oldId;
      if (buildId !== expected) misplaced.push(`${execution.workflowId} on ${buildId ?? 'no version'}`);
    }),
  );
  const workflows = executions.length;
  expect(failures).toEqual([]);
  expect(misplaced).toEqual([]);
  expect(workflows).toBeGreaterThan(PAUSED_JOBS * 2);

  // The control: the paused jobs' histories do not replay on the new release, so without pinning they would have
  // failed; they do replay on the release they ran on.
  const replay = async (bundle: string, jobId: string) => {
    const history = await client.workflow.getHandle(jobId).fetchHistory();
    return Worker.runReplayHistory(
      { workflowBundle: { codePath: bundle }, sinks: workflowTracingSinks(undefined) },
      history,
      jobId,
    );
  };
  await expect(replay(newBundle, jobIds[0]!)).rejects.toThrow(/[Nn]ondeterminism|DeterminismViolation/);
  await expect(replay(oldBundle, jobIds[0]!)).resolves.toBeUndefined();
  process.stdout.write(
    `\ndeploy drill: ${PAUSED_JOBS} paused jobs finished on ${oldId}, 1 new job on ${newId}, ` +
      `${workflows} workflows, ${failures.length} workflow task failures, ${retriedAnswers} answers sent again after 503 (${phases.join(', ')})\n\n`,
  );
}, 420_000);
