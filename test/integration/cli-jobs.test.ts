import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
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

/**
 * An HTTP proxy in front of the API that holds the answer to a job's cancel until the job's `error` event has gone down
 * the event stream it forwards: the order a loaded machine sometimes delivers them in.
 */
async function startCancelAnsweredAfterEndProxy(): Promise<{ url: string; close(): Promise<void> }> {
  let endForwarded!: () => void;
  const ended = new Promise<void>((resolve) => (endForwarded = resolve));
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    const upstream = http.request(new URL(path, keel.baseUrl), { method: request.method, headers: request.headers });
    upstream.on('response', (answer) => {
      const forward = () => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        let seen = '';
        answer.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          const isEnd = path.endsWith('/stream') && seen.includes('"kind":"error"');
          response.write(chunk, () => isEnd && endForwarded());
        });
        answer.on('end', () => response.end());
      };
      if (request.method === 'POST' && path.endsWith('/cancel')) void ended.then(forward);
      else forward();
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `keel <args>` on a pseudo-terminal (`script`), where \x03 typed is the terminal's Ctrl-C: what it shows, and waits. */
function keelOnTerminal(args: string[], env: NodeJS.ProcessEnv = cliEnv()) {
  const command = `exec ${[process.execPath, ...keelCli, ...args].join(' ')}`;
  const child = spawn('script', ['-qefc', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const until = (shows: (output: string) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => shows(output) && resolve();
      child.stdout.on('data', check);
      check();
    });
  return {
    output: () => output,
    until,
    seen: (text: string) => until((shown) => shown.includes(text)),
    type: (keys: string) => child.stdin.write(keys),
    exited: new Promise<number | null>((resolve) => child.once('close', resolve)),
  };
}

describe('Ctrl-C while following', () => {
  test('on a terminal it asks, and "c" cancels the job', async () => {
    const jobId = await submit('Write f.md #ask');
    await eventsUntil(jobId, (e) => e.kind === 'ask_user');
    const terminal = keelOnTerminal(['watch', jobId]);

    await terminal.seen(`keel answer ${jobId}`);
    terminal.type('\x03');
    await terminal.seen('[c]ancel / [D]etach>');
    terminal.type('c\r');
    expect(await terminal.exited).toBe(1);
    expect(terminal.output()).toContain(`cancelling job ${jobId}`);
    expect(terminal.output()).toContain('error');
    expect(await jobStatus(jobId)).toBe('cancelled');
  });

  test('on a terminal, "c" says it is cancelling and shows the end, even when the end arrives before the cancel is answered', async () => {
    const proxy = await startCancelAnsweredAfterEndProxy();
    try {
      const jobId = await submit('Write k.md #ask');
      await eventsUntil(jobId, (e) => e.kind === 'ask_user');
      const terminal = keelOnTerminal(['watch', jobId], cliEnv({ KEEL_API_URL: proxy.url }));

      await terminal.seen(`keel answer ${jobId}`);
      terminal.type('\x03');
      await terminal.seen('[c]ancel / [D]etach>');
      terminal.type('c\r');
      expect(await terminal.exited).toBe(1);
      const shown = stripVTControlCharacters(terminal.output());
      expect(shown).toContain(`cancelling job ${jobId}`);
      // What the job said meanwhile waits for the answer instead of landing on the question's line.
      expect(shown).toMatch(/\[D\]etach> c[ \r]*\n/);
      // The job's end, held while the question was open, is shown after the cancel, not dropped.
      expect(shown.indexOf('error', shown.indexOf(`cancelling job ${jobId}`))).toBeGreaterThan(0);
      expect(await jobStatus(jobId)).toBe('cancelled');
    } finally {
      await proxy.close();
    }
  });

  test('on a terminal, a job that ends while the question is open closes it and shows the end', async () => {
    const jobId = await submit('Write m.md #ask');
    const asked = await eventsUntil(jobId, (e) => e.kind === 'ask_user');
    const callId = String(asked.find((e) => e.kind === 'ask_user')!.payload.call_id);
    const terminal = keelOnTerminal(['watch', jobId]);

    await terminal.seen(`keel answer ${jobId}`);
    terminal.type('\x03');
    await terminal.seen('[c]ancel / [D]etach>');
    // Someone else answers meanwhile, and the job runs to its end while this terminal still asks.
    const resumed = await fetch(`${keel.baseUrl}/v1/jobs/${jobId}/resume`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keel.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ call_id: callId, answer: 'friendly' }),
    });
    expect(resumed.status).toBe(200);
    expect(await terminal.exited).toBe(0);
    const output = terminal.output();
    const afterQuestion = stripVTControlCharacters(output.slice(output.indexOf('[c]ancel / [D]etach>')));
    expect(afterQuestion).toContain('✔ final');
    expect(afterQuestion).toMatch(/^\[c\]ancel \/ \[D\]etach>[ \r]*\n/);
    expect(afterQuestion).not.toContain('detached');
    expect(await jobStatus(jobId)).toBe('completed');
  });

  test('keel job on a terminal: Ctrl-C at the answer prompt asks too, and Enter detaches, leaving the job waiting', async () => {
    const terminal = keelOnTerminal(['job', "'Write h.md #ask'"]);
    // This test timed out once in a loaded CI run; should it again, the failure names the step and what the terminal
    // showed, instead of jest's bare timeout.
    const step = <T>(name: string, done: Promise<T>) =>
      Promise.race([
        done,
        new Promise<never>((_, reject) =>
          setTimeout(
            () => reject(new Error(`stuck at ${name}; the terminal showed:\n${terminal.output()}`)),
            100_000,
          ).unref(),
        ),
      ]);

    await step('the answer prompt', terminal.seen('your answer> '));
    const jobId = /job (job-[0-9a-f-]+)/.exec(terminal.output())![1]!;
    // The prompt owns the line: what is typed echoes right after it, with no spinner frame drawn in between (that the
    // paused spinner draws nothing however long is cli/spinner.test.ts's, on fake timers).
    const afterPrompt = () => {
      const output = terminal.output();
      return stripVTControlCharacters(output.slice(output.indexOf('your answer> ')));
    };
    terminal.type('x');
    await step(
      'the echo of x',
      terminal.until(() => afterPrompt().includes('x')),
    );
    expect(afterPrompt()).toMatch(/^your answer> x/);
    expect(afterPrompt()).not.toContain('working…');
    terminal.type('\x03');
    await step('the cancel-or-detach question', terminal.seen('[c]ancel / [D]etach>'));
    terminal.type('\r');
    expect(await step('the exit', terminal.exited)).toBe(130);
    expect(terminal.output()).toContain(`detached from job ${jobId}; it goes on. Reattach: keel watch ${jobId}`);
    expect(await jobStatus(jobId)).toBe('paused');
  }, 300_000);

  test('detaching ends the stream even after a garbage collection while following', async () => {
    // Node 20's fetch could lose the abort after a collection (the CLI then printed "detached" and never exited).
    v8.setFlagsFromString('--expose-gc');
    const collect = vm.runInNewContext('gc') as () => void;
    const jobId = await submit('Write n.md #ask');
    const stop = new AbortController();
    const seen: string[] = [];
    const following = (async () => {
      for await (const event of streamJobEvents({
        baseUrl: keel.baseUrl,
        token: keel.token,
        jobId,
        signal: stop.signal,
      })) {
        seen.push(event.kind);
        if (event.kind === 'ask_user') {
          for (let i = 0; i < 3; i += 1) {
            collect();
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          stop.abort();
        }
      }
    })();
    // Without the fix the stream stays open for good: a bound turns that into a failure that says so.
    const stayedOpen = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the stream stayed open after the abort')), 60_000).unref(),
    );
    await expect(Promise.race([following, stayedOpen])).rejects.toThrow(/This operation was aborted/);
    expect(seen).toContain('ask_user');
  });

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
