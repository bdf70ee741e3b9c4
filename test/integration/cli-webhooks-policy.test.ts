import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eventually } from './eventually';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { startReceiver } from './webhook-receiver';

// `keel webhooks` and `keel policy` as a person runs them, a process against a real API, worker and Temporal
// (docs/webhooks.md, docs/approval-policies.md). The harness's token is an admin of org-test.
const root = path.resolve(__dirname, '..', '..');
const keelCli = [path.join(__dirname, 'ts-entry.js'), path.join(root, 'cli', 'keel.ts')];
const ORG = 'org-test';
const suffix = Date.now().toString(36);

let infra: Infrastructure;
let keel: KeelUnderTest;
let dataDir: string;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel({
    ...infra,
    webhooks: {
      allowHosts: ['127.0.0.1'],
      attemptTimeoutMs: 10_000,
      initialIntervalMs: 100,
      maximumIntervalMs: 1_000,
      maximumAttempts: 5,
    },
  });
  await keel.startWorker();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-cli-hooks-'));
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

function keelRun(args: string[], stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...keelCli, ...args], {
    env: { PATH: process.env.PATH, KEEL_API_URL: keel.baseUrl, KEEL_TOKEN: keel.token, DATA_DIR: dataDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(stdin ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function api(route: string, init: { method?: string; json?: unknown } = {}) {
  const response = await fetch(`${keel.baseUrl}${route}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${keel.token}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

test("keel webhooks lists a job's deliveries and redelivers one", async () => {
  const receiver = await startReceiver((index) => (index === 0 ? 500 : 200));
  try {
    const submitted = await api('/v1/chat', { json: { prompt: 'Write a.md', webhook: { url: receiver.url } } });
    expect(submitted.status).toBe(202);
    const jobId = submitted.body.job_id as string;
    // The job's `final` delivery: failed once (500), then delivered.
    await eventually(
      async () => {
        const log = await api(`/v1/jobs/${jobId}/webhook-deliveries`);
        const deliveries = log.body.deliveries as { status: string }[];
        return deliveries.length > 0 && deliveries.every((d) => d.status === 'delivered');
      },
      { what: `the webhook deliveries of ${jobId}`, timeoutMs: 300_000, intervalMs: 250 },
    );

    const listed = await keelRun(['webhooks', jobId]);
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
    const [header, row] = listed.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^DELIVERY\s+EVENT\s+ENDPOINT\s+STATUS\s+ATTEMPTS\s+LAST ANSWER$/);
    expect(row).toMatch(
      new RegExp(`^webhook-${jobId}-\\d+\\s+final #\\d+\\s+${receiver.url}\\s+delivered\\s+2\\s+200 in \\d+ ms$`),
    );

    const deliveryId = row!.split(/\s+/)[0]!;
    const again = await keelRun(['webhooks', jobId, '--redeliver', deliveryId]);
    expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' });
    const newId = again.stdout.trim();
    expect(newId).not.toBe(deliveryId);
    const json = await eventually(
      async () => {
        const ran = await keelRun(['webhooks', jobId, '--json']);
        const log = JSON.parse(ran.stdout) as { deliveries: { delivery_id: string; status: string }[] };
        return log.deliveries.find((d) => d.delivery_id === newId && d.status === 'delivered') && log;
      },
      { what: `redelivery ${newId}`, timeoutMs: 120_000, intervalMs: 500 },
    );
    expect(json.deliveries.map((d) => d.delivery_id)).toEqual(expect.arrayContaining([deliveryId, newId]));

    const unknown = await keelRun(['webhooks', 'job-nope']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('404');
  } finally {
    await receiver.close();
  }
});

test('keel policy shows, sets from stdin, refuses a bad policy, dry-runs and lists its history', async () => {
  const slug = `cli-policy-${suffix}`;
  expect((await api('/v1/projects', { json: { name: 'CLI policy', slug } })).status).toBe(201);
  const project = `${ORG}/${slug}`;

  const none = await keelRun(['policy', project]);
  expect({ code: none.code, stdout: none.stdout.trim() }).toEqual({
    code: 0,
    stdout: `${project} has no approval policy: every approval goes to a person.`,
  });

  const bad = await keelRun(['policy', project, '--set', '-'], 'rules:\n  - id: x\n    decide: maybe\n');
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toContain('400');
  expect((await keelRun(['policy', project])).stdout).toContain('has no approval policy');

  const yaml = '# docs are cheap\nrules:\n  - id: docs-ok\n    when: { paths_under: ["docs/"] }\n    decide: approve\n';
  const set = await keelRun(['policy', project, '--set', '-'], yaml);
  expect({ code: set.code, stderr: set.stderr }).toEqual({ code: 0, stderr: '' });
  expect(set.stdout).toMatch(new RegExp(`^approval policy of ${project} set by dev at `));

  const shown = await keelRun(['policy', project]);
  expect(shown.stdout).toMatch(/^# set by dev at .+\n# docs are cheap\nrules:/);

  const dry = await keelRun(['policy', project, '--dry-run', '--last', '5']);
  expect({ code: dry.code, stdout: dry.stdout.trim() }).toEqual({
    code: 0,
    stdout: '0 approvals: 0 would be approved, 0 rejected, 0 left to a person',
  });
  const badLast = await keelRun(['policy', project, '--dry-run', '--last', 'many']);
  expect(badLast.code).not.toBe(0);
  expect(badLast.stderr).toContain('--last');

  const history = await keelRun(['policy', project, '--history', '--json']);
  const changes = (JSON.parse(history.stdout) as { changes: { change: string; changed_by: string }[] }).changes;
  expect(changes).toEqual([expect.objectContaining({ change: 'set', changed_by: 'dev' })]);
});
