import { spawn } from 'node:child_process';
import path from 'node:path';
import { createTestPool, testPostgresDsn, uniqueSuffix } from './env';
import { eventually } from './eventually';
import { freePort, startRedis, type RedisServer } from './fault-drill-stack';

/*
 * The identity service alone (stack/identity-main.ts, as `npm run start:auth` runs it) started while its Redis is not
 * there. Before, its Redis client had no `error` listener: ioredis printed `[ioredis] Unhandled error event` with a
 * stack on stderr for every reconnect (34 lines in the issue's run), outside the structured log. Now the outage is one
 * `warn` line of the JSON log and the recovery one `info` line.
 */

const root = path.resolve(__dirname, '../..');
const schema = `redis_log_${uniqueSuffix()}`;
let redis: RedisServer | undefined;

afterAll(async () => {
  await redis?.stop();
  const pool = createTestPool('public');
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

interface LogLine {
  level: number;
  msg?: string;
  redis?: string;
  errors?: number;
}

test('Redis unreachable at the start of the identity service: logged as JSON lines, no unhandled error on stderr', async () => {
  const redisPort = await freePort();
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'test/integration/ts-entry.js'), 'stack/identity-main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATABASE_URL: testPostgresDsn,
      DATABASE_SCHEMA: schema,
      KEEL_SECRETS_FROM_ENV: 'true',
      AUTHLIB_SECRET: 'a test secret that is at least thirty-two characters',
      AUTHLIB_URL: `http://127.0.0.1:${port}`,
      AUTHLIB_COOKIE_DOMAIN: 'localhost',
      TRUSTED_ORIGINS: `http://127.0.0.1:${port}`,
      ADMIN_EMAILS: '',
      IDP_CLIENT_ID: 'keel',
      IDP_CLIENT_SECRET: 'keel-secret',
      IDP_ISSUER_URL: 'http://127.0.0.1:9/unused',
      PORT: String(port),
      // Nothing listens here until the test starts Redis on it.
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      KEEL_INSTANCE_ID: `test-${uniqueSuffix()}`,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const redisLines = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.redis === 'identity');
  try {
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok, {
      what: `the identity service to serve without Redis (stderr: ${stderr})`,
    });
    const outage = await eventually(() => redisLines().find((line) => line.level === 40), {
      what: 'the Redis outage in the structured log',
    });
    expect(outage.msg).toMatch(/Redis \(identity\) unavailable: .*ECONNREFUSED/);

    redis = await startRedis(redisPort);
    const back = await eventually(() => redisLines().find((line) => line.level === 30), {
      what: 'the recovery in the structured log',
    });
    expect(back.msg).toBe('Redis (identity) reachable again');
    expect(back.errors).toBeGreaterThanOrEqual(1);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  expect(stderr).not.toMatch(/Unhandled error event/);
  expect(stderr).not.toMatch(/ECONNREFUSED/);
}, 120_000);
