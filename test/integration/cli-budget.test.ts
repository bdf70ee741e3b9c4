import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eventually } from './eventually';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';

// `keel budget` against a real API, worker and Temporal: the month's spend and budgets, an admin setting one, and a
// job's reserved vs settled cost (docs/budgets.md). The harness's token is an admin of org-test (no user budget).
const root = path.resolve(__dirname, '..', '..');
const keelCli = [path.join(__dirname, 'ts-entry.js'), path.join(root, 'cli', 'keel.ts')];
const ORG = 'org-test';

let infra: Infrastructure;
let keel: KeelUnderTest;
let dataDir: string;
let jobId: string;
let costUsd: number;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  await keel.startWorker();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-cli-budget-'));
  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Write a.md #cost=0.05' }),
  });
  expect(response.status).toBe(202);
  jobId = ((await response.json()) as { job_id: string }).job_id;
  const done = await eventually(
    async () => {
      const res = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}`, {
        headers: { authorization: `Bearer ${keel.token}` },
      });
      const body = (await res.json()) as { status: string; cost_usd: number };
      return ['completed', 'failed', 'cancelled'].includes(body.status) && body;
    },
    { what: `job ${jobId} to end`, timeoutMs: 300_000, intervalMs: 250 },
  );
  expect(done.status).toBe('completed');
  costUsd = done.cost_usd;
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function keelRun(args: string[]): Promise<Ran> {
  const child = spawn(process.execPath, [...keelCli, ...args], {
    env: { PATH: process.env.PATH, KEEL_API_URL: keel.baseUrl, KEEL_TOKEN: keel.token, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

test('keel budget: your month and your org, in words and as JSON', async () => {
  const cents = Math.ceil(Math.round(costUsd * 1e6) / 1e4);
  const json = await keelRun(['budget', '--json']);
  expect({ code: json.code, stderr: json.stderr }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(json.stdout)).toMatchObject({
    user: { exempt: true, budget_cents: null, spent_cents: cents },
    org: { org_id: ORG, budget_cents: null, spent_cents: cents, remaining_cents: null },
  });
  const text = await keelRun(['budget']);
  expect(text.code).toBe(0);
  expect(text.stdout).toContain(`spent $${(cents / 100).toFixed(2)} this month; no monthly cap.`);
  expect(text.stdout).toMatch(new RegExp(`org ${ORG}\\s+\\$${(cents / 100).toFixed(2)}\\s+none\\s+-`));
});

test('keel budget --set and --all: an admin sets an org budget and lists what is left', async () => {
  const set = await keelRun(['budget', '--set', '12.50', '--org', ORG]);
  expect({ code: set.code, stderr: set.stderr }).toEqual({ code: 0, stderr: '' });
  expect(set.stdout).toMatch(/org org-test\s+\$\d+\.\d\d\s+\$12\.50\s+\$\d+\.\d\d/);
  const all = JSON.parse((await keelRun(['budget', '--all', '--org', ORG, '--json'])).stdout) as {
    orgs: Array<{ org_id: string; budget_cents: number; spent_cents: number; remaining_cents: number }>;
  };
  const org = all.orgs.find((o) => o.org_id === ORG)!;
  expect(org).toMatchObject({ budget_cents: 1250, remaining_cents: 1250 - org.spent_cents });
  const removed = await keelRun(['budget', '--set', 'none', '--org', ORG]);
  expect(removed.code).toBe(0);
  expect(removed.stdout).toMatch(/org org-test\s+\$\d+\.\d\d\s+none/);
  const bad = await keelRun(['budget', '--set', 'lots', '--org', ORG]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--set takes an amount in USD');
});

test('keel budget --job: each model call reserved and settled, the settled sum the job cost', async () => {
  const json = JSON.parse((await keelRun(['budget', '--job', jobId, '--json'])).stdout) as {
    totals: { calls: number; reserved_usd: number; settled_usd: number; open_usd: number };
    calls: Array<{ state: string; reserved_usd: number; settled_usd: number }>;
  };
  expect(json.totals).toMatchObject({ settled_usd: costUsd, reserved_usd: costUsd, open_usd: 0 });
  expect(json.calls).toHaveLength(json.totals.calls);
  expect(json.calls.every((c) => c.state === 'settled' && c.settled_usd === 0.05)).toBe(true);
  const text = await keelRun(['budget', '--job', jobId]);
  expect(text.stdout).toContain(
    `Job ${jobId}: ${json.totals.calls} model calls, reserved $${costUsd.toFixed(4)}, settled $${costUsd.toFixed(4)}`,
  );
  const unknown = await keelRun(['budget', '--job', 'job-nobody-submitted']);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('404');
});
