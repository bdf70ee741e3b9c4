import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCredentialUser } from '../../auth/credential-users';
import { consoleTokenPath, startStackConsole, type StackConsole } from '../../stack/console';
import { ensureFirstAdmin, firstAdminPath } from '../../stack/first-admin';
import { stackConsoleEnv } from '../../stack/config';
import { startIdentityService, type StackIdentity } from '../../stack/identity';
import { stackIdentityEnv } from '../../stack/identity-config';
import { freePort } from './console-bff-harness';
import { testPostgresDsn, uniqueSuffix } from './env';
import { createTestDatabase, type TestDatabase } from './harness';

// `npm start`'s console wiring without the rest of the stack: the identity service on the shared pool as the stack
// starts it, the first admin, and the console in front (the API address is a closed port; nothing here reaches it).
let db: TestDatabase;
let dataDir: string;
let identitySchema: string;
let identity: StackIdentity | undefined;
let webConsole: StackConsole | undefined;
let consolePort: number;

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-stack-console-'));
  identitySchema = `id_${uniqueSuffix()}`;
  consolePort = await freePort();
  // Parsed as `npm start` parses it: the console's port makes its origins trusted ones of the identity service.
  identity = await startIdentityService({
    config: stackIdentityEnv.parse({
      AUTH_PORT: '0',
      DATABASE_SCHEMA: identitySchema,
      POSTGRES_SCHEMA: db.schema,
      CONSOLE_PORT: String(consolePort),
    }),
    dataDir,
    pool: db.pool,
    databaseUrl: testPostgresDsn,
    instanceId: 'stack-console-test',
    logLevel: 'silent',
  });
});

afterAll(async () => {
  await webConsole?.close();
  await identity?.close();
  await db.pool.query(`DROP SCHEMA IF EXISTS "${identitySchema}" CASCADE`);
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('the first start creates an admin whose printed password signs in through the console', async () => {
  const first = await ensureFirstAdmin({
    pool: identity!.pool,
    tables: identity!.tables,
    dataDir,
    email: 'admin@keel.localhost',
    defaultBudgetCents: identity!.defaultBudgetCents,
  });
  expect(first.kind).toBe('created');
  if (first.kind !== 'created') return;
  expect(fs.statSync(firstAdminPath(dataDir)).mode & 0o777).toBe(0o600);
  expect(fs.readFileSync(firstAdminPath(dataDir), 'utf8')).toBe(`admin@keel.localhost\n${first.password}\n`);

  webConsole = await startStackConsole({
    // The console's org is configuration: its token is registered in CONSOLE_ORG_ID (one console per org).
    config: stackConsoleEnv.parse({ CONSOLE_PORT: String(consolePort), CONSOLE_ORG_ID: 'org-console-stack' }),
    dataDir,
    pool: db.pool,
    identity: identity!,
    apiUrl: `http://127.0.0.1:${await freePort()}`,
    temporalUiUrl: 'http://localhost:8233',
    logLevel: 'silent',
  });
  expect(webConsole.url).toBe(`http://localhost:${consolePort}`);
  expect(fs.statSync(consoleTokenPath(dataDir)).mode & 0o777).toBe(0o600);
  const { rows } = await db.pool.query<{ acts_for_users: boolean; is_admin: boolean; org_id: string }>(
    "SELECT acts_for_users, is_admin, org_id FROM api_tokens WHERE label = 'console'",
  );
  expect(rows).toEqual([{ acts_for_users: true, is_admin: true, org_id: 'org-console-stack' }]);

  const config = await fetch(`${webConsole.url}/api/console/config`);
  expect(await config.json()).toMatchObject({ passwordLogin: true, temporalUiUrl: 'http://localhost:8233' });
  // The browser's origin is the console's, which the stack made a trusted origin of the identity service.
  const signIn = await fetch(`${webConsole.url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: webConsole.url },
    body: JSON.stringify({ email: 'admin@keel.localhost', password: first.password }),
  });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  const session = await fetch(`${webConsole.url}/api/session`, { headers: { cookie } });
  expect(await session.json()).toMatchObject({ user: { email: 'admin@keel.localhost', role: 'admin' } });
});

test('a later start keeps the admin and its file; a database with its own admin is left alone', async () => {
  const options = {
    pool: identity!.pool,
    tables: identity!.tables,
    dataDir,
    email: 'admin@keel.localhost',
    defaultBudgetCents: identity!.defaultBudgetCents,
  };
  expect(await ensureFirstAdmin(options)).toEqual({
    kind: 'kept',
    email: 'admin@keel.localhost',
    file: firstAdminPath(dataDir),
  });
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-stack-console-'));
  try {
    await createCredentialUser(identity!.pool, identity!.tables, {
      email: 'someone@example.test',
      password: 'a password nobody uses',
      role: 'admin',
      approved: true,
      defaultBudgetCents: 0,
    });
    expect(await ensureFirstAdmin({ ...options, dataDir: elsewhere })).toEqual({ kind: 'none' });
    expect(fs.existsSync(firstAdminPath(elsewhere))).toBe(false);
  } finally {
    fs.rmSync(elsewhere, { recursive: true, force: true });
  }
});
