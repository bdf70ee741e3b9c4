import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startFakeVercel, type FakeVercel } from '../test/fakes/fake-vercel';
import { deployStaticSite, type VercelSettings } from './vercel';

let fake: FakeVercel;
let dir: string;
let settings: VercelSettings;

beforeEach(async () => {
  fake = await startFakeVercel();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-deploy-test-'));
  await fs.mkdir(path.join(dir, 'styles'));
  await fs.writeFile(path.join(dir, 'index.html'), '<title>Bakery</title>');
  await fs.writeFile(path.join(dir, 'styles', 'tokens.css'), ':root{}');
  settings = { apiUrl: fake.url, token: fake.token, pollIntervalMs: 1, readyTimeoutMs: 10_000 };
});

afterEach(async () => {
  await fake.close();
  await fs.rm(dir, { recursive: true, force: true });
});

test('files are uploaded, the deployment created and polled until READY; what went live is the build', async () => {
  const outcome = await deployStaticSite({ ...settings, teamId: 'team_123' }, dir, 'bakery');
  expect(outcome).toMatchObject({ ok: true, readyState: 'READY', files: 2 });
  if (!outcome.ok) throw new Error('unreachable');
  expect(outcome.url).toMatch(/^https:\/\/bakery-\w+\.vercel\.app$/);
  const live = fake.deployment(outcome.deploymentId)!;
  expect([...live.files.keys()].sort()).toEqual(['index.html', 'styles/tokens.css']);
  expect(live.files.get('index.html')!.toString()).toBe('<title>Bakery</title>');
  expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
    'POST /v2/files',
    'POST /v2/files',
    'POST /v13/deployments',
    `GET /v13/deployments/${outcome.deploymentId}`,
    `GET /v13/deployments/${outcome.deploymentId}`,
  ]);
  expect(fake.requests.every((r) => r.teamId === 'team_123')).toBe(true);
});

test("an error body's message and status come back as the failure", async () => {
  fake.failNextCreate(402, {
    error: { code: 'payment_required', message: 'This team has exceeded its deployment limit' },
  });
  const outcome = await deployStaticSite(settings, dir, 'bakery');
  expect(outcome).toEqual({ ok: false, status: 402, message: 'This team has exceeded its deployment limit' });
});

test('a refused token is a 403 failure with the message Vercel gave', async () => {
  const outcome = await deployStaticSite({ ...settings, token: 'wrong' }, dir, 'bakery');
  expect(outcome).toEqual({ ok: false, status: 403, message: 'Not authorized' });
});

test('a deployment that ends in ERROR reports its error message', async () => {
  fake.failBuilds('Build exceeded the output size limit');
  const outcome = await deployStaticSite(settings, dir, 'bakery');
  expect(outcome).toMatchObject({ ok: false, status: null, message: 'Build exceeded the output size limit' });
});
