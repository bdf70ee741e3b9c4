import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startIdentityService, type StackIdentity } from '../../stack/identity';
import { stackIdentityEnv } from '../../stack/identity-config';
import { createTestDatabase, type TestDatabase } from './harness';
import { testPostgresDsn } from './env';

// `npm start` itself needs the Temporal CLI; this drives the part of it that starts the identity service,
// over a pool shared with the ingest schema as the stack does.
let db: TestDatabase;
let dataDir: string;
let identity: StackIdentity | undefined;

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-stack-auth-'));
});

afterAll(async () => {
  await identity?.close();
  await db.pool.query('DROP SCHEMA IF EXISTS "identity_stack_test" CASCADE');
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('npm start runs identity on the shared database with local defaults and turns the budget gate on', async () => {
  identity = await startIdentityService({
    config: stackIdentityEnv.parse({
      AUTH_PORT: '0',
      DATABASE_SCHEMA: 'identity_stack_test',
      POSTGRES_SCHEMA: db.schema,
    }),
    dataDir,
    pool: db.pool,
    databaseUrl: testPostgresDsn,
    instanceId: 'stack-test',
    logLevel: 'silent',
  });
  const health = await fetch(`${identity.url}/healthz`);
  expect(health.status).toBe(200);
  // Without IDP_* the provider routes say so instead of failing.
  const oidc = await fetch(`${identity.url}/api/auth/sign-in/oidc`, { redirect: 'manual' });
  expect(oidc.status).toBe(404);
  expect(((await oidc.json()) as { error: { code: string } }).error.code).toBe('oidc_not_configured');
  // Identity shares the stack's database, so admission reads budgets from its tables (an unknown user has none).
  expect(await identity.budget?.standing('usr_nobody', Date.now())).toEqual({
    user: undefined,
    defaultBudgetCents: identity.defaultBudgetCents,
    spentCents: 0,
  });
  // The secret is generated once and kept private.
  expect(fs.statSync(path.join(dataDir, 'auth-secret')).mode & 0o777).toBe(0o600);
  // The identity migration left every pooled connection resolving the ingest schema's unqualified names.
  const checks = await Promise.all(Array.from({ length: 5 }, () => db.pool.query('SELECT count(*) FROM job_runs')));
  expect(checks).toHaveLength(5);
});
