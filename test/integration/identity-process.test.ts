import { spawn } from 'node:child_process';
import path from 'node:path';
import { createTestPool, testPostgresDsn, uniqueSuffix } from './env';
import { eventually } from './eventually';
import { freePort } from './stack-process';

// The identity service alone (`npm run start:auth`'s entry point, run from source) as an operator starts it from the
// identity spec's table: secrets as variables, no OIDC provider at all.
const root = path.resolve(__dirname, '..', '..');
const schema = `id_proc_${uniqueSuffix()}`;
const authlibSecret = 'an authlib secret of at least thirty-two characters';

interface IdentityProcess {
  output(): string;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

function startIdentity(env: Record<string, string>): IdentityProcess {
  const child = spawn(
    process.execPath,
    [path.join(__dirname, 'ts-entry.js'), path.join(root, 'stack', 'identity-main.ts')],
    { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const spec = {
  DATABASE_URL: testPostgresDsn,
  DATABASE_SCHEMA: schema,
  AUTHLIB_URL: 'http://localhost:8080',
  AUTHLIB_COOKIE_DOMAIN: 'localhost',
  TRUSTED_ORIGINS: 'http://localhost:3100',
  ADMIN_EMAILS: '',
  LOG_LEVEL: 'info',
};

afterAll(async () => {
  const pool = createTestPool(schema, { max: 1 });
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

test('password-only, AUTHLIB_SECRET as a variable: it serves, offers no OIDC, and logs where the secret should live', async () => {
  const port = await freePort();
  const identity = startIdentity({ ...spec, PORT: String(port), AUTHLIB_SECRET: authlibSecret });
  try {
    const health = await eventually(
      async () => {
        if (identity.output().includes('keel identity stopped')) throw new Error(identity.output());
        const answer = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        return answer?.status === 200 && answer;
      },
      { what: `the identity service on port ${port}` },
    );
    expect(health.status).toBe(200);
    const oidc = await fetch(`http://127.0.0.1:${port}/api/auth/sign-in/oidc`, { redirect: 'manual' });
    expect(oidc.status).toBe(404);
    expect(((await oidc.json()) as { error: { code: string } }).error.code).toBe('oidc_not_configured');
    // The structured log's start-up warning names the variable and where the store would look, never the value.
    const warning = identity
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; variable?: string; msg: string })
      .find((entry) => entry.variable === 'AUTHLIB_SECRET');
    expect(warning).toMatchObject({
      level: 40,
      msg: expect.stringContaining('AUTHLIB_SECRET is read from the environment') as unknown,
    });
    expect(identity.output()).not.toContain(authlibSecret);
  } finally {
    await identity.stop();
  }
});

test('a partial OIDC provider stops start-up with exit code 1, naming each missing variable', async () => {
  const identity = startIdentity({
    ...spec,
    PORT: String(await freePort()),
    AUTHLIB_SECRET: authlibSecret,
    IDP_ISSUER_URL: 'https://accounts.example.com',
  });
  expect(await identity.exited).toBe(1);
  expect(identity.output()).toContain('keel identity stopped: keel auth: invalid configuration');
  expect(identity.output()).toContain('  IDP_CLIENT_ID: required with IDP_ISSUER_URL');
  expect(identity.output()).toContain('  IDP_CLIENT_SECRET: required with IDP_ISSUER_URL');
});
