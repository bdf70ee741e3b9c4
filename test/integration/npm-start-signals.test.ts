import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { devServerPidPath, type DevServerPidRecord } from '../../temporal/dev-server';
import { spawnNpmStart, stackPorts, tempDataDir, untilRunning, type StackProcess } from './stack-process';

/**
 * `npm start` stopped the ways process managers stop it: a signal to npm's own pid (what `timeout`, IDE run buttons,
 * `concurrently` and most supervisors send), not to the terminal's whole process group; and a Keel killed with
 * SIGKILL, whose dev server the next start on the same data directory finds and stops. Every process of a stopped
 * Keel is gone and its ports are free for the next start.
 */
let dataDir: string;
let ports: Record<string, string>;
const started: StackProcess[] = [];

beforeAll(async () => {
  dataDir = await tempDataDir();
  ports = await stackPorts();
});

afterAll(async () => {
  // Only a failed test leaves anything running: kill what it left.
  const groups = started.map((stack) => stack.child.pid);
  groups.push(await devServerPid().catch(() => undefined));
  for (const pid of groups) {
    if (pid !== undefined && isAlive(pid)) process.kill(-pid, 'SIGKILL');
  }
  await fs.rm(dataDir, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const devServerPid = async () =>
  (JSON.parse(await fs.readFile(devServerPidPath(dataDir), 'utf8')) as DevServerPidRecord).pid;
/** The pid of `node dist/stack/main.js`: it holds the data directory's lock. */
const keelPid = async () => Number((await fs.readFile(path.join(dataDir, 'keel.lock'), 'utf8')).trim());

async function startKeel(): Promise<StackProcess> {
  const stack = spawnNpmStart({ DATA_DIR: dataDir, ...ports });
  started.push(stack);
  await untilRunning(stack);
  return stack;
}

/** Resolves with npm's exit code, or fails with what the stack printed if it has not exited by `deadlineMs`. */
async function exitOf(stack: StackProcess, what: string, deadlineMs = 60_000): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`npm start still running ${deadlineMs} ms after ${what}:\n${stack.output()}`)),
      deadlineMs,
    );
  });
  try {
    return await Promise.race([stack.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function portFree(port: string): Promise<boolean> {
  const probe = net.createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen({ host: '127.0.0.1', port: Number(port), exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

async function expectAllStopped(pids: number[]): Promise<void> {
  expect(pids.filter(isAlive)).toEqual([]);
  for (const name of ['API_PORT', 'AUTH_PORT', 'CONSOLE_PORT', 'TEMPORAL_DEV_PORT', 'TEMPORAL_UI_PORT']) {
    expect({ [name]: await portFree(ports[name]!) }).toEqual({ [name]: true });
  }
  await expect(fs.access(devServerPidPath(dataDir))).rejects.toThrow();
}

/** A job paused on its question, with a plain fetch attached to its stream (as a watching client would be). */
async function attachStream(): Promise<{ ended: Promise<string> }> {
  const apiUrl = `http://127.0.0.1:${ports.API_PORT}`;
  const token = (await fs.readFile(path.join(dataDir, 'dev-token'), 'utf8')).trim();
  const submitted = await fetch(`${apiUrl}/v1/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Write notes.md #ask' }),
  });
  expect(submitted.status).toBe(202);
  const { job_id: jobId } = (await submitted.json()) as { job_id: string };
  const response = await fetch(`${apiUrl}/v1/jobs/${jobId}/stream`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return { ended: response.text() };
}

test.each(['SIGINT', 'SIGTERM'] as const)(
  "%s to npm's own pid, with a job stream attached, stops every process Keel started",
  async (signal) => {
    const stack = await startKeel();
    const pids = [stack.child.pid!, await keelPid(), await devServerPid()];
    const stream = await attachStream();
    const sent = Date.now();
    process.kill(stack.child.pid!, signal);
    const code = await exitOf(stack, `${signal} to npm's pid`);
    console.log(`npm start stopped ${Date.now() - sent} ms after ${signal} to npm's pid`);
    expect({ code, output: code === 0 ? '' : stack.output() }).toEqual({ code: 0, output: '' });
    expect(stack.output()).toContain(`stopping Keel (${signal})`);
    expect(stack.output()).toContain('Keel stopped in');
    // The stream ended with the stopping comment, not a reset.
    expect(await stream.ended).toContain(': keel is stopping');
    await expectAllStopped(pids);
  },
);

test("Ctrl-C in a terminal (SIGINT to the whole group, and npm's forwarded copy) is one orderly stop, not a forced one", async () => {
  const stack = await startKeel();
  const pids = [stack.child.pid!, await keelPid(), await devServerPid()];
  process.kill(-stack.child.pid!, 'SIGINT');
  expect(await exitOf(stack, 'Ctrl-C')).toBe(0);
  expect(stack.output()).not.toContain('again: stopping Keel now');
  expect(stack.output()).toContain('Keel stopped in');
  await expectAllStopped(pids);
});

test('a Keel killed with SIGKILL leaves its dev server, and the next start on the data directory stops it and says so', async () => {
  const first = await startKeel();
  const orphan = await devServerPid();
  process.kill(await keelPid(), 'SIGKILL');
  await exitOf(first, 'SIGKILL to Keel');
  // Nothing of Keel ran after SIGKILL: its dev server, leading a process group of its own, is still there.
  expect(isAlive(orphan)).toBe(true);

  const second = await startKeel();
  expect(second.output()).toContain(`stopped the Temporal dev server (pid ${orphan}) that an earlier start on`);
  expect(isAlive(orphan)).toBe(false);
  const pids = [second.child.pid!, await keelPid(), await devServerPid()];
  process.kill(second.child.pid!, 'SIGTERM');
  expect(await exitOf(second, "SIGTERM to npm's pid")).toBe(0);
  await expectAllStopped(pids);
});
