import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { Client as PgClient, type Pool } from 'pg';
import { createCredentialUser } from '../../auth/credential-users';
import { streamJobEvents } from '../../cli/event-stream';
import { migrate } from '../../db/migrate';
import { createPool } from '../../db/pool';
import { identityTables } from '../../db/qualified-tables';
import { createToken } from '../../db/tokens';
import { eventEnvelope, type EventEnvelope } from '../../events/envelope';
import { isTerminalKind } from '../../events/kinds';
import { registerConsoleToken } from '../../stack/console';
import {
  freePort,
  startKeelProcess,
  startPostgresCluster,
  startRedis,
  startTemporalServer,
  type KeelEntryPoint,
  type KeelProcess,
  type PostgresCluster,
  type RedisServer,
  type TemporalServer,
} from './fault-drill-stack';
import { recordJobCost } from './identity-harness';
import { drillTable } from './drill-table';
import { eventually } from './eventually';

/*
 * The replicas drill: Keel in its production shape (docs/deployment.md), every process built (dist/stack/*-main.js)
 * and started with only the environment it needs: two ingest APIs, two workers, the identity service on a database of
 * its own and the console, over a PostgreSQL cluster (an ingest and an identity database), a Redis and a Temporal dev
 * server this file starts itself. Jobs are submitted to one API and streamed from the other; a worker and the
 * streaming API are SIGKILLed mid-run; budgets and rate limits are checked on both APIs. What it promises is in
 * docs/failure-modes.md ("Replicas"); the table at the end counts runs, survivors, losses and duplicates.
 */

const SCHEMA = 'keel';
const IDENTITY_SCHEMA = 'identity';
/** Jobs in the kill drill. */
const DRILL_JOBS = 16;
/** The per-user window both APIs get for the rate-limit drill. */
const RATE_LIMIT = 4;
/** The identity service's INTERNAL_API_TOKEN, the APIs' IDENTITY_INTERNAL_TOKEN. */
const INTERNAL_TOKEN = 'replicas-drill-internal-token-0123456789abcdef';
const PASSWORD = 'a password only this drill uses';
/** The budget every identity user gets here: one dollar a month. */
const BUDGET_CENTS = 100;
/** The `review` scenario alone: four levels, one of them writing a file (as in the fault drills). */
const SCENARIO = 'review';

const table = drillTable('replicas drill', 28);

/** A replica that serves HTTP: its address, the environment it is (re)started with, and the running process. */
interface Served {
  name: string;
  entry: KeelEntryPoint;
  url: string;
  env: Record<string, string>;
  health: string;
  process?: KeelProcess;
}

let dir: string;
let pg: PostgresCluster;
let redis: RedisServer;
let temporal: TemporalServer;
let ingestPool: Pool;
let identityPool: Pool;
let workspace: string;
/** A machine user's token (unknown to the identity service, so no budget): the kill drill's client. */
let drillToken: string;
let apiA: Served;
let apiB: Served;
let identity: Served;
let webConsole: Served;
const workers: Served[] = [];

/** Starts `served` and waits until its health probe answers 200; a process that exits first fails with its output. */
async function start(served: Served): Promise<void> {
  const started = startKeelProcess(served.entry, served.env);
  served.process = started;
  let exited = false;
  void started.exited.then(() => (exited = true));
  await eventually(
    async () => {
      if (exited) throw new Error(`${served.name} exited:\n${started.output()}`);
      return (await fetch(served.health)).ok;
    },
    { what: served.name, timeoutMs: 120_000, intervalMs: 200 },
  );
}

function replaceDatabase(dsn: string, database: string): string {
  return dsn.replace(/\/[^/]*$/, `/${database}`);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-replicas-'));
  workspace = path.join(dir, 'workspaces');
  [pg, redis, temporal] = await Promise.all([
    startPostgresCluster(),
    startRedis(),
    startTemporalServer(path.join(dir, 'temporal')),
  ]);
  // A database each, as the Helm chart deploys them: neither service can read the other's tables.
  const admin = new PgClient({ connectionString: pg.dsn });
  await admin.connect();
  await admin.query('CREATE DATABASE keel_ingest');
  await admin.query('CREATE DATABASE keel_identity');
  await admin.end();
  const ingestDsn = replaceDatabase(pg.dsn, 'keel_ingest');
  const identityDsn = replaceDatabase(pg.dsn, 'keel_identity');
  ingestPool = createPool({ dsn: ingestDsn, max: 4, ssl: false, schema: SCHEMA });
  identityPool = createPool({ dsn: identityDsn, max: 2, ssl: false, schema: IDENTITY_SCHEMA });
  // The release step (`keel migrate`): the ingest schema and the console's acting token.
  await migrate(ingestPool, SCHEMA);
  const consoleToken = await registerConsoleToken(ingestPool, 'dev');
  ({ token: drillToken } = await createToken(ingestPool, { userId: 'drill', orgId: 'org-drill', isAdmin: false }));

  // The identity service's three secrets are files of its secrets directory, never variables (docs/secrets.md).
  const secrets = path.join(dir, 'identity-secrets');
  fs.mkdirSync(secrets, { mode: 0o700 });
  for (const [id, value] of Object.entries({
    AUTHLIB_SECRET: 'a session secret of the replicas drill, 32+ characters',
    IDP_CLIENT_SECRET: 'unused-client-secret',
    INTERNAL_API_TOKEN: INTERNAL_TOKEN,
  })) {
    fs.writeFileSync(path.join(secrets, id), `${value}\n`, { mode: 0o600 });
  }

  const [portA, portB, identityPort, consolePort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const url = (port: number) => `http://127.0.0.1:${port}`;
  const shared = {
    POSTGRES_DSN: ingestDsn,
    POSTGRES_SCHEMA: SCHEMA,
    POSTGRES_POOL_MAX: '10',
    REDIS_URL: redis.url,
    TEMPORAL_ADDRESS: temporal.address,
    KEEL_INSTANCE_ID: 'replicas',
    // Job workspaces on storage every API and worker shares (the chart's ReadWriteMany volume).
    WORKSPACE_DIR: workspace,
    LOG_LEVEL: 'fatal',
  };
  const api = (name: string, port: number): Served => ({
    name,
    entry: 'api-main',
    url: url(port),
    health: `${url(port)}/healthz`,
    env: {
      ...shared,
      DATA_DIR: path.join(dir, name),
      API_PORT: String(port),
      STREAM_POLL_MS: '300',
      // The kill drill's clients open many streams; the rate-limit drill restarts both APIs with RATE_LIMIT.
      RATE_LIMIT_USER_PER_MINUTE: '100000',
      RATE_LIMIT_ORG_PER_MINUTE: '100000',
      IDENTITY_URL: url(identityPort),
      IDENTITY_INTERNAL_TOKEN: INTERNAL_TOKEN,
      DEFAULT_BUDGET_USD: String(BUDGET_CENTS / 100),
    },
  });
  apiA = api('api-a', portA);
  apiB = api('api-b', portB);
  for (const name of ['worker-1', 'worker-2']) {
    const port = await freePort();
    workers.push({
      name,
      entry: 'worker-main',
      url: url(port),
      health: `${url(port)}/healthz`,
      env: {
        ...shared,
        DATA_DIR: path.join(dir, name),
        WORKFLOW_BUNDLE_PATH: path.resolve(__dirname, '../../dist/workflow-bundle.js'),
        WORKER_SHUTDOWN_GRACE: '1 second',
        WORKER_HTTP_PORT: String(port),
      },
    });
  }
  identity = {
    name: 'identity',
    entry: 'identity-main',
    url: url(identityPort),
    health: `${url(identityPort)}/healthz`,
    env: {
      DATABASE_URL: identityDsn,
      DATABASE_SCHEMA: IDENTITY_SCHEMA,
      AUTHLIB_URL: url(identityPort),
      AUTHLIB_COOKIE_DOMAIN: 'localhost',
      TRUSTED_ORIGINS: url(consolePort),
      IDP_CLIENT_ID: 'keel',
      IDP_ISSUER_URL: 'http://127.0.0.1:9/unused',
      ADMIN_EMAILS: '',
      DEFAULT_BUDGET_USD: String(BUDGET_CENTS / 100),
      REDIS_URL: redis.url,
      KEEL_INSTANCE_ID: 'replicas',
      // Ownership and spend come from the ingest API's ledger routes: its database is not reachable from here.
      INGEST_URL: apiA.url,
      KEEL_SECRETS_DIR: secrets,
      PORT: String(identityPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'fatal',
    },
  };
  webConsole = {
    name: 'console',
    entry: 'console-main',
    url: url(consolePort),
    health: `${url(consolePort)}/healthz`,
    env: {
      CONSOLE_PORT: String(consolePort),
      CONSOLE_HOST: '127.0.0.1',
      IDENTITY_URL: identity.url,
      // The other replica than the identity service's: the console's submissions are admitted by API B.
      INGEST_API_URL: apiB.url,
      CONSOLE_API_TOKEN: consoleToken,
      LOG_LEVEL: 'fatal',
    },
  };
  await Promise.all([apiA, apiB, identity, webConsole, ...workers].map(start));
}, 300_000);

afterAll(async () => {
  for (const served of [webConsole, apiA, apiB, identity, ...workers]) await served?.process?.kill();
  await temporal?.stop();
  await redis?.stop();
  await ingestPool?.end();
  await identityPool?.end();
  await pg?.destroy();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  const lines = table.lines();
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}, 60_000);

interface Answer {
  status: number;
  headers: Headers;
  body: { job_id?: string; error?: { code: string; message: string } };
}

async function post(base: string, route: string, token: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Answer['body'] };
}

/** A submission, retried after `Retry-After` when a loaded machine's Temporal missed the 2 s start deadline. */
async function submit(base: string, token: string, prompt: string): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await post(base, '/v1/chat', token, { prompt, scenario: SCENARIO });
    if (answer.status === 202) return answer.body.job_id!;
    if (answer.status !== 503 || attempt === 3) {
      throw new Error(`submission to ${base} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    await delay(Number(answer.headers.get('retry-after')) * 1000);
  }
}

/** Where a client reads a job's stream from: an API replica with a token, or the console with a session. */
interface StreamSource {
  name: string;
  open(jobId: string, lastEventId?: number): AsyncIterable<EventEnvelope>;
}

function fromApi(api: Served, token: string): StreamSource {
  return {
    name: api.name,
    open: (jobId, lastEventId) => streamJobEvents({ baseUrl: api.url, token, jobId, lastEventId }),
  };
}

/** The console's proxied stream (`/api/v1/jobs/:id/stream`), as the web app reads it with its session cookie. */
function fromConsole(cookie: string): StreamSource {
  return {
    name: 'console',
    async *open(jobId, lastEventId) {
      const response = await fetch(`${webConsole.url}/api/v1/jobs/${jobId}/stream`, {
        headers: {
          cookie,
          accept: 'text/event-stream',
          ...(lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) }),
        },
      });
      if (response.status !== 200 || !response.body) throw new Error(`the console answered ${response.status}`);
      const messages = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
      for await (const message of messages) yield eventEnvelope.parse(JSON.parse(message.data));
    },
  };
}

interface Connected {
  /** The source that served this connection. */
  source: string;
  /** The Last-Event-ID it was opened with. */
  lastEventId?: number;
}

interface Followed {
  jobId: string;
  /** Every event as it arrived, repeats included. */
  arrived: EventEnvelope[];
  /** Every stream opened, in order, with the source that served it. */
  connections: Connected[];
}

/**
 * A client that reads a job's stream to its terminal event from the first of `sources`, and whenever the stream
 * breaks reconnects with Last-Event-ID to the next one that answers, as a client behind a load balancer does when a
 * replica dies.
 */
async function follow(
  jobId: string,
  sources: StreamSource[],
  onEvent?: (event: EventEnvelope) => void,
): Promise<Followed> {
  const followed: Followed = { jobId, arrived: [], connections: [] };
  const until = Date.now() + 240_000;
  let lastError: unknown;
  for (let attempt = 0; Date.now() < until; attempt += 1) {
    const source = sources[attempt % sources.length]!;
    const lastEventId = followed.arrived.at(-1)?.sequence;
    let opened = false;
    try {
      for await (const event of source.open(jobId, lastEventId)) {
        if (!opened) followed.connections.push({ source: source.name, lastEventId });
        opened = true;
        followed.arrived.push(event);
        onEvent?.(event);
        if (isTerminalKind(event.kind)) return followed;
      }
    } catch (err) {
      // that source is down: the next one below
      lastError = err;
    }
    await delay(250);
  }
  throw new Error(
    `job ${jobId} did not end; saw ${followed.arrived.map((e) => e.sequence).join(',')}; last error: ${String(lastError)}`,
  );
}

/** True when the job's stream carried each of 1..N exactly once, in order. */
function inSequence(followed: Followed): boolean {
  return followed.arrived.every((event, i) => event.sequence === i + 1);
}

async function storedEvents(jobId: string): Promise<number> {
  const { rows } = await ingestPool.query<{ n: string }>('SELECT count(*) AS n FROM job_events WHERE job_id = $1', [
    jobId,
  ]);
  return Number(rows[0]!.n);
}

async function jobsOf(userId: string): Promise<number> {
  const { rows } = await ingestPool.query<{ n: string }>('SELECT count(*) AS n FROM job_runs WHERE created_by = $1', [
    userId,
  ]);
  return Number(rows[0]!.n);
}

/** The files a job reported, recorded and left on the shared workspace storage, each sorted. */
async function filesOf(followed: Followed) {
  const final = followed.arrived.at(-1)!;
  const reported = [...((final.payload as { created_files?: string[] }).created_files ?? [])].sort();
  const { rows } = await ingestPool.query<{ path: string }>(
    'SELECT path FROM job_files WHERE job_id = $1 ORDER BY path',
    [followed.jobId],
  );
  const onDisk = fs.existsSync(path.join(workspace, followed.jobId))
    ? fs.readdirSync(path.join(workspace, followed.jobId)).sort()
    : [];
  return { reported, recorded: rows.map((r) => r.path), onDisk };
}

/**
 * The worker identities that completed a workflow task or started an activity of each job, from Temporal's history of
 * the job's workflow and every child workflow it started.
 */
async function workerIdentities(jobIds: string[]): Promise<Map<string, Set<string>>> {
  const connection = await Connection.connect({ address: temporal.address });
  try {
    const client = new Client({ connection });
    const byJob = new Map<string, Set<string>>();
    for (const jobId of jobIds) {
      const seen = new Set<string>();
      const pending: Array<{ workflowId: string; runId?: string }> = [{ workflowId: jobId }];
      while (pending.length > 0) {
        const { workflowId, runId } = pending.pop()!;
        const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
        for (const event of history.events ?? []) {
          const identity =
            event.workflowTaskCompletedEventAttributes?.identity ?? event.activityTaskStartedEventAttributes?.identity;
          if (identity) seen.add(identity);
          const child = event.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
          if (child?.workflowId) pending.push({ workflowId: child.workflowId, runId: child.runId ?? undefined });
        }
      }
      byJob.set(jobId, seen);
    }
    return byJob;
  } finally {
    await connection.close();
  }
}

/** The Temporal SDK's default worker identity is `<pid>@<host>`. */
const identityOf = (worker: KeelProcess) => `${worker.pid}@${os.hostname()}`;

/** Signs `email` in through the console (its origin, as a browser sends it) and returns the Cookie header. */
async function signInThroughConsole(email: string): Promise<string> {
  const response = await fetch(`${webConsole.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: webConsole.url },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${email} answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
}

async function submitThroughConsole(cookie: string, prompt: string): Promise<Answer> {
  const response = await fetch(`${webConsole.url}/api/v1/chat`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', origin: webConsole.url },
    body: JSON.stringify({ prompt, scenario: SCENARIO }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Answer['body'] };
}

test('budgets hold on both APIs and through the console: over budget 402 everywhere, under budget runs', async () => {
  const tables = identityTables(IDENTITY_SCHEMA);
  const people: Record<'member' | 'spender', { id: string; email: string; token: string }> = {} as never;
  for (const who of ['member', 'spender'] as const) {
    const email = `${who}@replicas.test`;
    const user = await createCredentialUser(identityPool, tables, {
      email,
      password: PASSWORD,
      role: 'user',
      approved: true,
      defaultBudgetCents: BUDGET_CENTS,
    });
    const { token } = await createToken(ingestPool, { userId: user.id, orgId: 'org-budgets', isAdmin: false });
    people[who] = { id: user.id, email, token };
  }
  // Twice the budget spent this month, in the ingest ledger the identity service cannot read directly.
  await recordJobCost(ingestPool, SCHEMA, { userId: people.spender.id, costUsd: 2, createdAt: new Date() });

  const refused: Answer[] = [];
  // Each accepted job is streamed from the replica it was not submitted to.
  const accepted: Array<{ jobId: string; streamFrom: StreamSource }> = [];
  for (const [api, other] of [
    [apiA, apiB],
    [apiB, apiA],
  ] as const) {
    refused.push(
      await post(api.url, '/v1/chat', people.spender.token, { prompt: 'Write spent.md', scenario: SCENARIO }),
    );
    const jobId = await submit(api.url, people.member.token, `Write budget-${api.name}.md`);
    accepted.push({ jobId, streamFrom: fromApi(other, people.member.token) });
  }
  // The console: sign-in through it, and submissions admitted by the identity service's preflight (which reads the
  // spend from API A's ledger routes) and then by API B; the accepted job is streamed through the console.
  refused.push(await submitThroughConsole(await signInThroughConsole(people.spender.email), 'Write spent.md'));
  const memberCookie = await signInThroughConsole(people.member.email);
  const throughConsole = await submitThroughConsole(memberCookie, 'Write console.md');
  expect([throughConsole.status, throughConsole.body.error]).toEqual([202, undefined]);
  accepted.push({ jobId: throughConsole.body.job_id!, streamFrom: fromConsole(memberCookie) });

  const followed = await Promise.all(accepted.map(({ jobId, streamFrom }) => follow(jobId, [streamFrom])));
  const finals = followed.filter((f) => f.arrived.at(-1)?.kind === 'final');
  const properRefusals = refused.filter((a) => a.status === 402 && a.body.error?.code === 'over_budget');
  // The spender's one row is the recorded spend: a refused submission stores nothing.
  const spenderRows = await jobsOf(people.spender.id);
  table.record({
    drill: 'budgets (2 APIs, console)',
    runs: refused.length + accepted.length,
    survived: properRefusals.length + finals.length,
    lost: accepted.length - finals.length,
    duplicated: spenderRows - 1 + followed.filter((f) => !inSequence(f)).length,
  });
  expect(refused.map((a) => [a.status, a.body.error?.code])).toEqual(refused.map(() => [402, 'over_budget']));
  expect(spenderRows).toBe(1);
  expect(finals).toHaveLength(accepted.length);
  expect(followed.filter((f) => !inSequence(f))).toEqual([]);
  expect(await jobsOf(people.member.id)).toBe(accepted.length);
}, 300_000);

test('jobs submitted to API A and streamed from API B while a worker and API B are SIGKILLed: 0 lost, 0 duplicated', async () => {
  const [first, second] = workers as [Served, Served];
  const jobIds = await Promise.all(
    Array.from({ length: DRILL_JOBS }, (_, i) =>
      submit(apiA.url, drillToken, `Write replica-${i}.md listing ${i + 1} rivers`),
    ),
  );
  let events = 0;
  /** The jobs whose stream has carried at least one event: opened on API B, so the kill cuts a stream under way. */
  const streaming = new Set<string>();
  const finished = new Set<string>();
  // Each client streams from API B; when B dies it resumes with Last-Event-ID on A, the surviving replica.
  const followers = Promise.all(
    jobIds.map((id) =>
      follow(id, [fromApi(apiB, drillToken), fromApi(apiA, drillToken)], (event) => {
        events += 1;
        streaming.add(id);
        if (isTerminalKind(event.kind)) finished.add(id);
      }),
    ),
  );
  // Every stream under way (each has carried an event from API B: a count of all events alone can be reached while the
  // last jobs still wait for a worker), then the kills at a random point a few events apart, while jobs run.
  const progress = async (target: number, what: string) =>
    eventually(() => Promise.resolve(events >= target && streaming.size === DRILL_JOBS), {
      what,
      timeoutMs: 180_000,
      intervalMs: 100,
    });
  await progress(DRILL_JOBS * 2 + Math.floor(Math.random() * DRILL_JOBS), 'every stream to be under way');
  const firstWorker = first.process!;
  await firstWorker.kill('SIGKILL');
  await progress(events + 2 + Math.floor(Math.random() * 6), 'progress after the worker kill');
  const unfinishedAtApiKill = jobIds.filter((id) => !finished.has(id)).length;
  await apiB.process!.kill('SIGKILL');
  const followed = await followers;

  const finals = followed.filter((f) => f.arrived.at(-1)?.kind === 'final');
  const duplicated = followed.filter((f) => !inSequence(f));
  const identities = await workerIdentities(jobIds);
  const byWorker = [firstWorker, second.process!].map(
    (worker) => jobIds.filter((id) => identities.get(id)!.has(identityOf(worker))).length,
  );
  const files = await Promise.all(followed.map(filesOf));
  const fileProblems = files.filter(
    (f) =>
      f.reported.length === 0 ||
      JSON.stringify(f.recorded) !== JSON.stringify(f.reported) ||
      JSON.stringify(f.onDisk) !== JSON.stringify(f.reported),
  );
  const resumed = followed.filter((f) => f.connections.length > 1);
  process.stdout.write(
    `\nreplicas: jobs touched by worker 1 (killed) ${byWorker[0]}, by worker 2 ${byWorker[1]}; ` +
      `${unfinishedAtApiKill} jobs not ended when API B was killed, ${resumed.length} streams cut and resumed on API A\n`,
  );
  table.record({
    drill: 'worker + API SIGKILL',
    runs: followed.length,
    survived: finals.length,
    lost: followed.length - finals.length + fileProblems.length,
    duplicated: duplicated.length + (await jobsOf('drill')) - DRILL_JOBS,
  });
  expect(finals).toHaveLength(DRILL_JOBS);
  expect(duplicated).toEqual([]);
  expect(fileProblems).toEqual([]);
  expect(await jobsOf('drill')).toBe(DRILL_JOBS);
  for (const f of followed) expect(await storedEvents(f.jobId)).toBe(f.arrived.length);
  // Both workers took work.
  expect(byWorker.every((n) => n > 0)).toBe(true);
  // Every stream opened on API B; each one the kill cut (its job not yet ended) resumed on API A with Last-Event-ID.
  expect(followed.map((f) => f.connections[0]!.source)).toEqual(followed.map(() => apiB.name));
  expect(resumed.length).toBeGreaterThan(0);
  for (const f of resumed) {
    expect(f.connections.slice(1).map((c) => [c.source, c.lastEventId !== undefined])).toEqual(
      f.connections.slice(1).map(() => [apiA.name, true]),
    );
  }
}, 420_000);

test(`rate limits hold across replicas: ${RATE_LIMIT} submissions a minute accepted over both APIs, then 429`, async () => {
  // Both APIs (re)started with a small per-user window, as a configuration rollout would.
  await apiA.process?.kill('SIGTERM');
  for (const api of [apiA, apiB]) api.env = { ...api.env, RATE_LIMIT_USER_PER_MINUTE: String(RATE_LIMIT) };
  await Promise.all([start(apiA), start(apiB)]);
  const { token } = await createToken(ingestPool, { userId: 'limited', orgId: 'org-limits', isAdmin: false });
  const answers: Array<Answer & { api: string }> = [];
  for (let i = 0; i < RATE_LIMIT * 2; i += 1) {
    const api = i % 2 === 0 ? apiA : apiB;
    const answer = await post(api.url, '/v1/chat', token, { prompt: `Write limited-${i}.md`, scenario: SCENARIO });
    answers.push({ ...answer, api: api.name });
  }
  // What the limiter let through: a job accepted, or (on a machine too loaded for Temporal's 2 s start deadline) a 503
  // that stored nothing but was charged all the same.
  const passed = answers.filter((a) => a.status !== 429);
  const accepted = answers.filter((a) => a.status === 202);
  const limited = answers.filter((a) => a.status === 429 && a.body.error?.code === 'rate_limited');
  const rows = await jobsOf('limited');
  table.record({
    drill: `rate limit ${RATE_LIMIT}/min (2 APIs)`,
    runs: answers.length,
    survived: Math.min(passed.length, RATE_LIMIT) + limited.length,
    lost: RATE_LIMIT - Math.min(passed.length, RATE_LIMIT),
    duplicated: Math.max(0, passed.length - RATE_LIMIT) + Math.abs(rows - accepted.length),
  });
  expect(answers.map((a) => (a.status === 429 ? 429 : 'passed'))).toEqual([
    ...Array<string>(RATE_LIMIT).fill('passed'),
    ...Array<number>(RATE_LIMIT).fill(429),
  ]);
  expect(passed.map((a) => a.status === 202 || a.body.error?.code === 'queue_unavailable')).toEqual(
    passed.map(() => true),
  );
  expect(limited).toHaveLength(RATE_LIMIT);
  // Refused on both replicas, each with when to retry.
  expect(new Set(limited.map((a) => a.api))).toEqual(new Set([apiA.name, apiB.name]));
  expect(limited.every((a) => Number(a.headers.get('retry-after')) > 0)).toBe(true);
  expect(rows).toBe(accepted.length);
}, 180_000);
