import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { streamJobEvents } from '../../cli/event-stream';
import type { EventEnvelope } from '../../events/envelope';
import { startInfrastructure, startKeel, type Infrastructure, type KeelUnderTest } from './harness';
import { freePort } from './stack-process';

// `npx keel` against a real API, worker and Temporal: the commands a person runs on jobs by id.
const root = path.resolve(__dirname, '..', '..');
const keelCli = [path.join(__dirname, 'ts-entry.js'), path.join(root, 'cli', 'keel.ts')];

let infra: Infrastructure;
let keel: KeelUnderTest;
let dataDir: string;

beforeAll(async () => {
  infra = await startInfrastructure();
  keel = await startKeel(infra);
  await keel.startWorker();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-cli-'));
});

afterAll(async () => {
  await keel?.close();
  await infra?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, KEEL_API_URL: keel.baseUrl, KEEL_TOKEN: keel.token, DATA_DIR: dataDir, ...extra };
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function keelRun(args: string[], extra: Record<string, string> = {}): Promise<Ran> {
  const child = spawn(process.execPath, [...keelCli, ...args], {
    env: cliEnv(extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

async function submit(prompt: string): Promise<string> {
  const response = await fetch(`${keel.baseUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt }),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

/** Reads the job's stream until `until` matches an event (or the job ends), then stops reading. */
async function eventsUntil(jobId: string, until: (event: EventEnvelope) => boolean): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  const stop = new AbortController();
  for await (const event of streamJobEvents({ baseUrl: keel.baseUrl, token: keel.token, jobId, signal: stop.signal })) {
    events.push(event);
    if (until(event) || event.kind === 'final' || event.kind === 'error') break;
  }
  stop.abort();
  return events;
}

async function jobStatus(jobId: string): Promise<string> {
  const response = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}`, {
    headers: { authorization: `Bearer ${keel.token}` },
  });
  return ((await response.json()) as { status: string }).status;
}

describe('keel watch', () => {
  let jobId: string;
  beforeAll(async () => {
    jobId = await submit('Write hello.md that greets the reader #verify-fail=1');
    await eventsUntil(jobId, () => false);
  });

  test('replays a finished job from the start: verdicts as words, retried levels numbered, runs counted', async () => {
    const watched = await keelRun(['watch', jobId]);
    expect({ code: watched.code, stderr: watched.stderr }).toEqual({ code: 0, stderr: '' });
    expect(watched.stdout).toContain('verdict: fail');
    expect(watched.stdout).toContain('(attempt 2)');
    expect(watched.stdout).not.toContain('{"verdict"');
    const levelRuns = watched.stdout.split('\n').filter((line) => / [✓✗] \d+ ms/.test(line)).length;
    expect(watched.stdout).toContain(`✔ final  ${levelRuns} levels ran; wrote hello.md; verifier: pass.`);
    // No provider key here, so every level was rerouted to the demo model: said once, not once per level.
    const offline = watched.stdout.split('\n').filter((line) => line.includes('no paid provider is configured'));
    expect({ levelRuns: levelRuns > 1, offline: offline.length }).toEqual({ levelRuns: true, offline: 1 });
  });

  test('--json prints one event object per line, every sequence in order', async () => {
    const watched = await keelRun(['watch', jobId, '--json']);
    expect(watched.code).toBe(0);
    const events = watched.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as EventEnvelope);
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(events.every((e) => e.job_id === jobId)).toBe(true);
    expect(events.at(-1)?.kind).toBe('final');
  });

  test('an unknown job is a clear error, not an empty stream', async () => {
    const watched = await keelRun(['watch', 'job-nobody-submitted']);
    expect(watched.code).toBe(2);
    expect(watched.stderr).toContain('404');
  });
});

describe('keel jobs', () => {
  test('lists recent jobs, newest first, filtered by status and limited', async () => {
    const done = await submit('Write a.md');
    await eventsUntil(done, () => false);
    const waiting = await submit('Write b.md #ask');
    await eventsUntil(waiting, (e) => e.kind === 'ask_user');

    const all = JSON.parse((await keelRun(['jobs', '--json'])).stdout) as Array<{ job_id: string; status: string }>;
    expect(all.map((j) => j.job_id).slice(0, 2)).toEqual([waiting, done]);
    expect(all.find((j) => j.job_id === done)?.status).toBe('completed');

    const completed = JSON.parse((await keelRun(['jobs', '--status', 'completed', '--json'])).stdout) as Array<{
      job_id: string;
      status: string;
    }>;
    expect(completed.map((j) => j.job_id)).toContain(done);
    expect(completed.map((j) => j.job_id)).not.toContain(waiting);
    expect(completed.every((j) => j.status === 'completed')).toBe(true);

    expect(JSON.parse((await keelRun(['jobs', '--limit', '1', '--json'])).stdout)).toHaveLength(1);
    const table = await keelRun(['jobs', '--limit', '2']);
    expect(table.stdout.split('\n')[0]).toMatch(/^JOB +STATUS +UPDATED/);
    expect(table.stdout).toContain(waiting);

    const bad = await keelRun(['jobs', '--status', 'done']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--status is one of');
  });
});

describe('keel cancel, answer, approve', () => {
  test('cancel stops a waiting job; cancelling it again says it is finished', async () => {
    const jobId = await submit('Write c.md #ask');
    await eventsUntil(jobId, (e) => e.kind === 'ask_user');
    const cancelled = await keelRun(['cancel', jobId]);
    expect({ code: cancelled.code, stdout: cancelled.stdout.trim() }).toEqual({
      code: 0,
      stdout: `cancelled job ${jobId}`,
    });
    const rest = await eventsUntil(jobId, () => false);
    expect(rest.at(-1)).toMatchObject({ kind: 'error', payload: { code: 'cancelled' } });
    expect(await jobStatus(jobId)).toBe('cancelled');
    const again = await keelRun(['cancel', jobId]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('job_finished');
  });

  test('answer finds the pending question and resumes the job with the text', async () => {
    const jobId = await submit('Write d.md #ask');
    await eventsUntil(jobId, (e) => e.kind === 'ask_user');
    const answered = await keelRun(['answer', jobId, 'make', 'it', 'blue']);
    expect({ code: answered.code, stderr: answered.stderr }).toEqual({ code: 0, stderr: '' });
    const events = await eventsUntil(jobId, () => false);
    expect(events.at(-1)?.kind).toBe('final');
    expect(await jobStatus(jobId)).toBe('completed');
  });

  test('approve --reject decides the approval with a comment', async () => {
    const jobId = await submit('Write e.md that greets the reader #approve');
    const asked = (await eventsUntil(jobId, (e) => e.kind === 'approval_requested')).at(-1)!;
    expect(asked.kind).toBe('approval_requested');
    const approvalId = String(asked.payload.approval_id);
    const decided = await keelRun(['approve', approvalId, '--reject', '--comment', 'not today']);
    expect({ code: decided.code, stderr: decided.stderr }).toEqual({ code: 0, stderr: '' });
    expect(decided.stdout).toContain(`rejected ${approvalId}`);
    const approval = await fetch(`${keel.baseUrl}/v1/approvals/${approvalId}`, {
      headers: { authorization: `Bearer ${keel.token}` },
    });
    expect(await approval.json()).toMatchObject({ status: 'rejected', comment: 'not today' });
  });
});

describe('an unreachable API', () => {
  test('says where the CLI looked, where that came from, and how to start Keel', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const ran = await keelRun(['jobs'], { KEEL_API_URL: url });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(`cannot reach the Keel API at ${url} (from KEEL_API_URL)`);
    expect(ran.stderr).toContain('npm start');
    expect(ran.stderr).not.toContain('fetch failed');
  });
});

interface JobJson {
  status: string;
  pending: {
    questions: Array<{ call_id: string; role: string; question: string }> | null;
    approvals: Array<{ approval_id: string; role: string; action: string; reason: string; requested_at: string }>;
  } | null;
}

async function getJobJson(jobId: string): Promise<JobJson> {
  const response = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}`, {
    headers: { authorization: `Bearer ${keel.token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as JobJson;
}

describe('a paused job says what it waits for', () => {
  test('GET /v1/jobs/:id lists the open question; keel jobs prints the command that answers it, and it does', async () => {
    const jobId = await submit('Write q.md #ask');
    const ask = (await eventsUntil(jobId, (e) => e.kind === 'ask_user')).at(-1)!;
    const callId = String(ask.payload.call_id);
    expect(await getJobJson(jobId)).toMatchObject({
      status: 'paused',
      pending: {
        questions: [{ call_id: callId, role: ask.agent_role, question: ask.payload.question }],
        approvals: [],
      },
    });

    const listed = await keelRun(['jobs', '--status', 'pending']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`job ${jobId} waits for a person:`);
    expect(listed.stdout).toContain(`${ask.agent_role} asks: ${String(ask.payload.question)}`);
    expect(listed.stdout).toContain(`keel answer ${jobId} --call ${callId} "<your answer>"`);
    const json = JSON.parse((await keelRun(['jobs', '--status', 'pending', '--json'])).stdout) as Array<
      { job_id: string } & JobJson
    >;
    expect(json.find((row) => row.job_id === jobId)?.pending?.questions?.[0]?.call_id).toBe(callId);

    const answered = await keelRun(['answer', jobId, '--call', callId, 'make it blue']);
    expect({ code: answered.code, stderr: answered.stderr }).toEqual({ code: 0, stderr: '' });
    expect((await eventsUntil(jobId, () => false)).at(-1)?.kind).toBe('final');
    expect(await getJobJson(jobId)).toMatchObject({ status: 'completed', pending: null });
  });

  test('a pending approval is listed with its id; keel watch prints the keel approve command first', async () => {
    const jobId = await submit('Write r.md that greets the reader #approve');
    const asked = (await eventsUntil(jobId, (e) => e.kind === 'approval_requested')).at(-1)!;
    const approvalId = String(asked.payload.approval_id);
    const job = await getJobJson(jobId);
    expect(job).toMatchObject({
      status: 'paused',
      pending: { questions: [], approvals: [{ approval_id: approvalId, role: asked.agent_role }] },
    });
    expect(job.pending!.approvals[0]!.action).not.toBe('');

    const child = spawn(process.execPath, [...keelCli, 'watch', jobId], {
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const command = `keel approve ${approvalId}    (or: keel approve ${approvalId} --reject)`;
    await new Promise<void>((resolve) => {
      const check = () => stderr.includes(command) && resolve();
      child.stderr.on('data', check);
    });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr.startsWith(`job ${jobId} waits for a person:\n  ${asked.agent_role} asks approval for: `)).toBe(true);

    const approved = await keelRun(['approve', approvalId]);
    expect(approved.code).toBe(0);
    expect((await eventsUntil(jobId, () => false)).at(-1)?.kind).toBe('final');
    expect((await getJobJson(jobId)).pending).toBeNull();
  });
});

describe('Ctrl-C while following', () => {
  test('on a terminal it asks, and "c" cancels the job', async () => {
    const jobId = await submit('Write f.md #ask');
    await eventsUntil(jobId, (e) => e.kind === 'ask_user');
    // `script` gives the CLI a pseudo-terminal: \x03 typed there is the terminal's Ctrl-C.
    const command = `exec ${[process.execPath, ...keelCli, 'watch', jobId].join(' ')}`;
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const seen = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => output.includes(text) && resolve();
        child.stdout.on('data', check);
        check();
      });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));

    await seen(`keel answer ${jobId}`);
    child.stdin.write('\x03');
    await seen('[c]ancel / [D]etach>');
    child.stdin.write('c\r');
    expect(await exited).toBe(1);
    expect(output).toContain(`cancelling job ${jobId}`);
    expect(output).toContain('error');
    expect(await jobStatus(jobId)).toBe('cancelled');
  });

  test('keel job on a terminal: Ctrl-C at the answer prompt asks too, and Enter detaches, leaving the job waiting', async () => {
    const command = `exec ${[process.execPath, ...keelCli, 'job', "'Write h.md #ask'"].join(' ')}`;
    const child = spawn('script', ['-qefc', command, '/dev/null'], { env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const seen = (text: string) =>
      new Promise<void>((resolve) => {
        const check = () => output.includes(text) && resolve();
        child.stdout.on('data', check);
        check();
      });
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    // This test timed out once in a loaded CI run; should it again, the failure names the step and what the terminal
    // showed, instead of jest's bare timeout.
    const step = <T>(name: string, done: Promise<T>) =>
      Promise.race([
        done,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`stuck at ${name}; the terminal showed:\n${output}`)), 100_000).unref(),
        ),
      ]);

    await step('the answer prompt', seen('your answer> '));
    const jobId = /job (job-[0-9a-f-]+)/.exec(output)![1]!;
    // The prompt owns the line: what is typed echoes right after it, with no spinner frame drawn in between (that the
    // paused spinner draws nothing however long is cli/spinner.test.ts's, on fake timers).
    const afterPrompt = () => stripVTControlCharacters(output.slice(output.indexOf('your answer> ')));
    child.stdin.write('x');
    await step(
      'the echo of x',
      new Promise<void>((resolve) => {
        const check = () => afterPrompt().includes('x') && resolve();
        child.stdout.on('data', check);
        check();
      }),
    );
    expect(afterPrompt()).toMatch(/^your answer> x/);
    expect(afterPrompt()).not.toContain('working…');
    child.stdin.write('\x03');
    await step('the cancel-or-detach question', seen('[c]ancel / [D]etach>'));
    child.stdin.write('\r');
    expect(await step('the exit', exited)).toBe(130);
    expect(output).toContain(`detached from job ${jobId}; it goes on. Reattach: keel watch ${jobId}`);
    expect(await jobStatus(jobId)).toBe('paused');
  }, 300_000);

  test('without a terminal it detaches, leaves the job running and says how to reattach', async () => {
    const jobId = await submit('Write g.md #ask');
    await eventsUntil(jobId, (e) => e.kind === 'ask_user');
    const child = spawn(process.execPath, [...keelCli, 'watch', jobId], {
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    await new Promise<void>((resolve) => {
      const check = () => stderr.includes(`keel answer ${jobId}`) && resolve();
      child.stderr.on('data', check);
    });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain(`detached from job ${jobId}; it goes on. Reattach: keel watch ${jobId}`);
    expect(await jobStatus(jobId)).toBe('paused');
  });
});

describe('keel without a token', () => {
  test('names the dev-token file it looked for, so a stack run with another DATA_DIR is found', async () => {
    const { KEEL_TOKEN: _unset, ...env } = cliEnv();
    const child = spawn(process.execPath, [...keelCli, 'jobs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).not.toBe(0);
    expect(stderr).toContain(`looked for it in ${path.join(dataDir, 'dev-token')}`);
  });
});
