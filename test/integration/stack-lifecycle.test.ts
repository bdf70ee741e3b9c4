import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { STREAM_STOPPING_COMMENT } from '../../events/stream-comments';
import { freePort, spawnStack, stackPorts, tempDataDir, untilRunning, type StackProcess } from './stack-process';

const root = path.resolve(__dirname, '..', '..');

// `npm start` as an operator runs it: refusing a second start, and stopping clean on Ctrl-C with a stream attached.
describe('npm start: start safe, stop clean', () => {
  let dataDir: string;
  let ports: Record<string, string>;
  let stack: StackProcess;
  const others: StackProcess[] = [];

  beforeAll(async () => {
    dataDir = await tempDataDir();
    ports = await stackPorts();
    stack = spawnStack({ DATA_DIR: dataDir, ...ports });
    await untilRunning(stack);
  });

  afterAll(async () => {
    for (const other of [stack, ...others]) {
      if (other.child.exitCode === null && other.child.pid) process.kill(-other.child.pid, 'SIGKILL');
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('a second start on a data directory in use refuses at once, naming DATA_DIR and the holder', async () => {
    const fresh = await stackPorts();
    const second = spawnStack({ DATA_DIR: dataDir, ...fresh });
    others.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`is in use by Keel process ${stack.child.pid}`);
    expect(second.output()).toContain('set DATA_DIR');
    expect(second.output()).not.toContain('starting the Temporal dev server');
  });

  test('a second start on busy ports refuses at once, naming each variable to change', async () => {
    const otherDir = await tempDataDir();
    try {
      const second = spawnStack({ DATA_DIR: otherDir, ...ports });
      others.push(second);
      expect(await second.exited).toBe(1);
      for (const variable of ['API_PORT', 'AUTH_PORT', 'CONSOLE_PORT', 'TEMPORAL_DEV_PORT', 'TEMPORAL_UI_PORT']) {
        expect(second.output()).toContain(`(${variable})`);
      }
      expect(second.output()).not.toContain('starting the Temporal dev server');
      // Its refusal left no lock behind: the directory is free for the next start.
      await expect(fs.access(path.join(otherDir, 'keel.lock'))).rejects.toThrow();
    } finally {
      await fs.rm(otherDir, { recursive: true, force: true });
    }
  });

  test('a busy Temporal port alone is refused too: Keel never joins a server it did not start', async () => {
    const otherDir = await tempDataDir();
    const squatter = net.createServer();
    const temporalPort = await freePort();
    await new Promise<void>((resolve) => squatter.listen({ host: '127.0.0.1', port: temporalPort }, resolve));
    try {
      const second = spawnStack({
        DATA_DIR: otherDir,
        ...(await stackPorts()),
        TEMPORAL_DEV_PORT: String(temporalPort),
      });
      others.push(second);
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`127.0.0.1:${temporalPort} (TEMPORAL_DEV_PORT)`);
      expect(second.output()).not.toContain('(API_PORT)');
    } finally {
      squatter.close();
      await fs.rm(otherDir, { recursive: true, force: true });
    }
  });

  test('Ctrl-C with a job stream attached ends the stream with a final comment and stops everything', async () => {
    const apiUrl = `http://127.0.0.1:${ports.API_PORT}`;
    const token = (await fs.readFile(path.join(dataDir, 'dev-token'), 'utf8')).trim();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const submitted = await fetch(`${apiUrl}/v1/chat`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ prompt: 'Write notes.md #ask' }),
    });
    expect(submitted.status).toBe(202);
    const { job_id: jobId } = (await submitted.json()) as { job_id: string };

    const response = await fetch(`${apiUrl}/v1/jobs/${jobId}/stream`, {
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    });
    const kinds: string[] = [];
    const comments: string[] = [];
    let answerUrl: unknown;
    let askedResolve: () => void = () => undefined;
    let askedReject: (err: Error) => void = () => undefined;
    const asked = new Promise<void>((resolve, reject) => {
      askedResolve = resolve;
      askedReject = reject;
    });
    const stream = (async () => {
      const messages = response
        .body!.pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream({ onComment: (comment) => comments.push(comment.trim()) }));
      for await (const message of messages) {
        const { kind, payload } = JSON.parse(message.data) as { kind: string; payload: Record<string, unknown> };
        kinds.push(kind);
        if (kind === 'ask_user') answerUrl = payload.answer_url;
        if (kind === 'ask_user') askedResolve();
        // The stack runs dist/workflow-bundle.js: a stale one (no `npm run build`) fails the job here, not in a hang.
        if (kind === 'error') askedReject(new Error(`the job failed before it asked: ${message.data}`));
      }
    })();
    await asked;
    // Answer links work out of the box: signed with the secret npm start generated, pointing at the API it started.
    expect(String(answerUrl)).toMatch(new RegExp(`^${apiUrl}/answer/[\\w-]+\\.[\\w-]+$`));
    expect((await fs.stat(path.join(dataDir, 'answer-link-secret'))).mode & 0o777).toBe(0o600);
    const page = await fetch(String(answerUrl));
    expect({ status: page.status, state: page.headers.get('keel-link-state') }).toEqual({ status: 200, state: 'open' });
    // An operator opening the paused job's "Stack Trace" tab in the Temporal UI sees where it waits, in Keel's own
    // source. The stack process runs workflow threads as production does, with the SDK's stack capture that the test
    // processes leave out (test/workflow-diagnostics-off.js).
    const connection = await Connection.connect({ address: `127.0.0.1:${ports.TEMPORAL_DEV_PORT}` });
    try {
      const trace = await new Client({ connection }).workflow.getHandle(jobId).query<string>('__stack_trace');
      expect(trace).toMatch(/workflows\/[\w-]+\.ts:\d+:\d+/);
    } finally {
      await connection.close();
    }
    // And `keel watch`, attached as a person would be: told that Keel stopped and how to reattach.
    const watch = spawn(
      process.execPath,
      [path.join(__dirname, 'ts-entry.js'), path.join(root, 'cli', 'keel.ts'), 'watch', jobId],
      {
        env: { PATH: process.env.PATH, KEEL_API_URL: apiUrl, KEEL_TOKEN: token, DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let watchErr = '';
    watch.stderr.on('data', (chunk: Buffer) => (watchErr += chunk.toString()));
    const watchExited = new Promise<number | null>((resolve) => watch.once('close', resolve));
    await new Promise<void>((resolve) => {
      // The stream's own hint (not the paused-job summary said before it): the watch is attached to the stream.
      const check = () => watchErr.includes(`(answer: keel answer ${jobId}`) && resolve();
      watch.stderr.on('data', check);
    });

    // The terminal's Ctrl-C reaches the whole foreground process group.
    const started = Date.now();
    process.kill(-stack.child.pid!, 'SIGINT');
    const code = await Promise.race([
      stack.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve('still running after 20 s'), 20_000).unref()),
    ]);
    console.log(`npm start stopped ${Date.now() - started} ms after Ctrl-C with a stream attached`);
    expect({ code, output: code === 0 ? '' : stack.output() }).toEqual({ code: 0, output: '' });
    await stream;
    expect(kinds).toContain('ask_user');
    expect(kinds).not.toContain('final');
    expect(comments.at(-1)).toBe(STREAM_STOPPING_COMMENT);
    // The dev server stopped last: the worker never lost its server while draining, and its port is free again.
    expect(stack.output()).not.toMatch(/Connection refused|ECONNREFUSED/i);
    expect(stack.output()).toContain('Keel stopped in');
    const probe = net.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host: '127.0.0.1', port: Number(ports.TEMPORAL_DEV_PORT) }, resolve);
    });
    probe.close();
    await expect(fs.access(path.join(dataDir, 'keel.lock'))).rejects.toThrow();
    expect(await watchExited).toBe(1);
    expect(watchErr).toContain(
      `Keel stopped; job ${jobId} goes on when Keel starts again. Reattach: keel watch ${jobId}`,
    );
  });
});
