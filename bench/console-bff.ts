// Prints what the console's backend-for-frontend adds to an API call: GET /v1/workflows?limit=20 straight to the
// ingest API with a token, the same call with the console's token and acting-user headers (the API's own cost of
// acting), and the same page through the console with a session cookie (preflight + proxy), plus GET /api/session
// (the preflight alone). Real HTTP on loopback, keep-alive, all measured in one run. Identity, API and console run in
// this one process, so the console row pays for the preflight, the API call and the proxy on one event loop.
// Needs PostgreSQL (BENCH_POSTGRES_DSN; throwaway schemas, dropped at the end).
// Run: npm run build && node dist/bench/console-bff.js [--n=2000] [--c=16] [--warmup=200]  (or BENCH_N, ...)
import crypto from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { buildAuthApp } from '../auth/app';
import { authSettings } from '../auth/config';
import { createCredentialUser } from '../auth/credential-users';
import { migrateIdentity } from '../auth/migrate';
import { buildConsoleApp } from '../console/server/app';
import { consoleEnv } from '../console/server/config';
import { migrate } from '../db/migrate';
import { createPool } from '../db/pool';
import { identityTables } from '../db/qualified-tables';
import { createToken } from '../db/tokens';
import { createQueueStore } from '../queue/create-queue-store';
import { startBenchApi } from './api';
import { loadGets, loadRow, param, printJson } from './measure';
import { runBench, Teardown } from './run-bench';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const N = param('n', 2000);
const CONCURRENCY = param('c', 16);
const WARMUP = param('warmup', 200);
const LOAD = { requests: N, concurrency: CONCURRENCY, warmup: WARMUP };
const ORG = 'bench-org';
const WORKFLOWS = 200;

async function main(): Promise<void> {
  const teardown = new Teardown();
  try {
    await measure(teardown);
  } finally {
    await teardown.run();
  }
}

async function measure(teardown: Teardown): Promise<void> {
  const suffix = crypto.randomBytes(4).toString('hex');
  const identitySchema = `bench_id_${suffix}`;
  const schema = `bench_keel_${suffix}`;
  const pool = createPool({ dsn: POSTGRES_DSN, max: 10, ssl: false, schema });
  teardown.push('pool', () => pool.end());
  teardown.push('schemas', async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${identitySchema}" CASCADE`);
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });
  await migrate(pool, schema);
  await migrateIdentity(pool, identitySchema);

  const password = crypto.randomBytes(16).toString('base64url');
  const user = await createCredentialUser(pool, identityTables(identitySchema), {
    email: 'bench@example.test',
    password,
    role: 'user',
    approved: true,
    defaultBudgetCents: 2500,
  });
  // The member's own workflows, so every measured page is a full one of 20.
  await pool.query(
    `INSERT INTO workflows (workflow_id, created_by, org_id, updated_at)
     SELECT 'wf-' || g, $2, $3, now() - g * interval '1 minute' FROM generate_series(1, $1::int) g`,
    [WORKFLOWS, user.id, ORG],
  );
  const machine = await createToken(pool, { userId: user.id, orgId: ORG, isAdmin: false });
  const consoleToken = await createToken(pool, { userId: 'console', orgId: ORG, isAdmin: true, actsForUsers: true });

  const queue = await createQueueStore({ instanceId: `bench-${suffix}` });
  teardown.push('queue', () => queue.close());
  // Reads never reach Temporal; the client points at a closed port.
  const connection = Connection.lazy({ address: '127.0.0.1:1', interceptors: [] });
  teardown.push('temporal client', () => connection.close());
  const api = await startBenchApi({ pool, queue, temporal: new Client({ connection }), taskQueue: 'bench' });
  teardown.push('api', () => api.app.close());

  const authEnv = authSettings.parse({
    DATABASE_URL: POSTGRES_DSN,
    DATABASE_SCHEMA: identitySchema,
    INGEST_SCHEMA: schema,
    AUTHLIB_SECRET: crypto.randomBytes(32).toString('base64url'),
    AUTHLIB_URL: 'http://localhost:8080',
    AUTHLIB_COOKIE_DOMAIN: 'localhost',
    TRUSTED_ORIGINS: 'http://localhost:3100',
    ADMIN_EMAILS: '',
  });
  const identity = await buildAuthApp({ pool, env: authEnv }, { logger: false });
  teardown.push('identity', () => identity.close());
  const identityUrl = await identity.listen({ host: '127.0.0.1', port: 0 });

  const consoleApp = await buildConsoleApp(
    consoleEnv.parse({
      IDENTITY_URL: identityUrl,
      INGEST_API_URL: api.baseUrl,
      CONSOLE_API_TOKEN: consoleToken.token,
      LOG_LEVEL: 'silent',
    }),
    { logger: false },
  );
  teardown.push('console', () => consoleApp.close());
  const consoleUrl = await consoleApp.listen({ host: '127.0.0.1', port: 0 });

  const signIn = await fetch(`${consoleUrl}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.test', password }),
  });
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');

  const page = '/v1/workflows?limit=20';
  console.log(`${N} requests per row, ${CONCURRENCY} concurrent, keep-alive HTTP on loopback; ${WORKFLOWS} workflows`);
  console.log('call | req/s | p50 ms | p99 ms');
  const rows: Array<[string, string, string, Record<string, string>]> = [
    ['ingest API, machine token', api.baseUrl, page, { authorization: `Bearer ${machine.token}` }],
    [
      'ingest API, console token acting for the member',
      api.baseUrl,
      page,
      {
        authorization: `Bearer ${consoleToken.token}`,
        'x-keel-acting-user': user.id,
        'x-keel-acting-role': 'user',
      },
    ],
    ['console /api/v1 (preflight + proxy)', consoleUrl, `/api${page}`, { cookie }],
    ['console /api/session (preflight only)', consoleUrl, '/api/session', { cookie }],
  ];
  const results: Array<{ call: string; rps: number; p50_ms: number; p99_ms: number }> = [];
  for (const [label, base, path, headers] of rows) {
    const result = await loadGets(new URL(base), path, headers, LOAD);
    console.log(loadRow(label, result));
    results.push({ call: label, rps: result.rps, p50_ms: result.p50, p99_ms: result.p99 });
  }
  const direct = results[0]!;
  printJson('console-bff', {
    rows: results,
    ratios_p50_vs_machine_token: Object.fromEntries(results.map((r) => [r.call, r.p50_ms / direct.p50_ms])),
  });
}

runBench(main);
