import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app';
import { recordJobFile } from '../../db/files';
import { createToken } from '../../db/tokens';
import type { QueueStore } from '../../queue/queue-store';
import { uniqueSuffix } from './env';
import { apiDepsOver, createTestDatabase, createTestQueue, type TestDatabase } from './harness';

/**
 * A job's files as the console shows them (GET /v1/jobs/:id/files/*): the type a browser may show, `attachment` when
 * asked to download, a sandbox on every file; and GET /v1/scenarios, the names a submission accepts. No job runs.
 */
let db: TestDatabase;
let queue: QueueStore;
let connection: Connection;
let app: FastifyInstance;
let workspaceRoot: string;
let token: string;
let stranger: string;
const jobId = `job-files-${uniqueSuffix()}`;

const FILES: Record<string, Buffer> = {
  'README.md': Buffer.from('# Hello\n\n- one\n- two\n'),
  'site/index.html': Buffer.from('<h1>Hi</h1><script>alert(1)</script>'),
  'src/main.ts': Buffer.from('export const x = 1;\n'),
  'logo.png': Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  'blob.bin': Buffer.from([0, 1, 2, 255]),
  'naïve report.md': Buffer.from('accents\n'),
};

beforeAll(async () => {
  db = await createTestDatabase();
  queue = await createTestQueue();
  connection = Connection.lazy({ address: '127.0.0.1:1', interceptors: [] });
  workspaceRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-job-files-'));
  app = await buildApp(apiDepsOver({ pool: db.pool, queue, connection }, { workspaceRoot }), { logger: false });
  token = (await createToken(db.pool, { userId: 'owner', orgId: 'org-files', isAdmin: false })).token;
  stranger = (await createToken(db.pool, { userId: 'other', orgId: 'org-other', isAdmin: false })).token;

  await db.pool.query('INSERT INTO workflows (workflow_id, created_by, org_id) VALUES ($1, $2, $3)', [
    'wf-files',
    'owner',
    'org-files',
  ]);
  await db.pool.query(
    'INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ($1, $2, $3, $4)',
    ['pt-files', 'wf-files', 'Write files', 'owner'],
  );
  await db.pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue)
     VALUES ($1, 'wf-files', 'pt-files', 'completed', 'owner', 'org-files', 'keel-test')`,
    [jobId],
  );
  for (const [name, bytes] of Object.entries(FILES)) {
    const file = path.join(workspaceRoot, jobId, name);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, bytes);
    await recordJobFile(db.pool, jobId, { path: name, sha256: 'x', sizeBytes: bytes.length });
  }
});

afterAll(async () => {
  await app?.close();
  await connection?.close().catch(() => undefined);
  await queue?.close();
  await db?.drop();
  await fs.rm(workspaceRoot, { recursive: true, force: true });
});

const get = (url: string, bearer = token) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } });
const fileUrl = (name: string) => `/v1/jobs/${jobId}/files/${name.split('/').map(encodeURIComponent).join('/')}`;

test.each([
  ['README.md', 'text/plain; charset=utf-8'],
  ['site/index.html', 'text/plain; charset=utf-8'],
  ['src/main.ts', 'text/plain; charset=utf-8'],
  ['logo.png', 'image/png'],
  ['blob.bin', 'application/octet-stream'],
])('%s is served as %s, inline, sandboxed, with its bytes unchanged', async (name, type) => {
  const res = await get(fileUrl(name));
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe(type);
  expect(res.headers['content-disposition']).toMatch(/^inline; filename=/);
  // Opened directly, a model's HTML runs no script on this origin.
  expect(res.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.rawPayload.equals(FILES[name]!)).toBe(true);
});

test('?download=true answers attachment with the file name (non-ASCII names encoded)', async () => {
  const res = await get(`${fileUrl('site/index.html')}?download=true`);
  expect(res.headers['content-disposition']).toBe('attachment; filename="index.html"');
  const accented = await get(`${fileUrl('naïve report.md')}?download=true`);
  expect(accented.headers['content-disposition']).toBe(
    `attachment; filename="na?ve report.md"; filename*=UTF-8''na%C3%AFve%20report.md`,
  );
});

test('a bad download value is 400 with a code; another org, an unknown or unlisted file is 404', async () => {
  const bad = await get(`${fileUrl('README.md')}?download=yes`);
  expect(bad.statusCode).toBe(400);
  expect(bad.json<{ error: { code: string } }>().error.code).toEqual(expect.any(String));
  expect((await get(fileUrl('README.md'), stranger)).statusCode).toBe(404);
  expect((await get(fileUrl('missing.md'))).statusCode).toBe(404);
  await fs.writeFile(path.join(workspaceRoot, jobId, 'unlisted.md'), 'not recorded');
  expect((await get(fileUrl('unlisted.md'))).statusCode).toBe(404);
});

test('GET /v1/scenarios lists the scenario files a submission accepts, build the default', async () => {
  const res = await get('/v1/scenarios');
  expect(res.statusCode).toBe(200);
  const { scenarios } = res.json<{
    scenarios: Array<{ name: string; description: string; default: boolean; chain: string | null }>;
  }>();
  const names = scenarios.map((s) => s.name);
  expect(names).toEqual(expect.arrayContaining(['build', 'review', 'product']));
  expect(scenarios.filter((s) => s.default).map((s) => s.name)).toEqual(['build']);
  for (const s of scenarios) expect(s.description.length).toBeGreaterThan(0);
  // Each name is one the submission accepts: the 400 for an unknown one lists the same names.
  const refused = await app.inject({
    method: 'POST',
    url: '/v1/workflows',
    headers: { authorization: `Bearer ${token}` },
    payload: { prompt: 'x', scenario: 'nope' },
  });
  expect(refused.statusCode).toBe(400);
  expect(refused.json<{ error: { message: string } }>().error.message).toContain(`available: ${names.join(', ')}`);
  expect((await app.inject({ method: 'GET', url: '/v1/scenarios' })).statusCode).toBe(401);
});
