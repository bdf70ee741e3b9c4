import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { networkIsolationAvailable, runInSandbox } from './sandbox';

let dir: string;

beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-sandbox-test-'));
});

afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const run = (command: string, extra: Partial<Parameters<typeof runInSandbox>[0]> = {}) =>
  runInSandbox({ command, cwd: dir, timeoutMs: 20_000, outputCapBytes: 100_000, ...extra });

test('a Keel secret in the worker environment is not visible to the build', async () => {
  process.env.KEEL_PLANTED_SECRET = 'sk-planted-4242';
  process.env.OPENAI_API_KEY = 'sk-openai-planted';
  try {
    const result = await run('env; echo "home=$HOME"');
    expect(result.exitCode).toBe(0);
    expect(result.outputTail).not.toContain('sk-planted-4242');
    expect(result.outputTail).not.toContain('KEEL_PLANTED_SECRET');
    expect(result.outputTail).not.toContain('sk-openai-planted');
    // The build's HOME is a scratch folder of its own, not the worker's.
    expect(result.outputTail).not.toContain(`home=${os.homedir()}\n`);
  } finally {
    delete process.env.KEEL_PLANTED_SECRET;
    delete process.env.OPENAI_API_KEY;
  }
});

test('a build past its time limit is killed with everything it started', async () => {
  // The background sleep is a grandchild: only a process-group kill reaches it.
  const result = await run('sleep 60 & echo "bg=$!"; sleep 60', { timeoutMs: 300 });
  expect(result.killed).toBe('timeout');
  expect(result.exitCode).toBeNull();
  const background = Number(/bg=(\d+)/.exec(result.outputTail)?.[1]);
  expect(background).toBeGreaterThan(0);
  expect(stateOf(background)).toMatch(/^(gone|Z)$/);
});

test('output past the cap stops the build and keeps only the tail', async () => {
  const result = await run('yes keel-output-line', { outputCapBytes: 50_000, tailBytes: 100 });
  expect(result.killed).toBe('output_cap');
  expect(result.outputTail.length).toBeLessThanOrEqual(100);
  expect(result.outputTail).toContain('keel-output-line');
});

test('the command runs in its own working directory and reports its exit code', async () => {
  await fs.writeFile(path.join(dir, 'marker.txt'), 'here');
  const result = await run('cat marker.txt; exit 3');
  expect(result.outputTail).toBe('here');
  expect(result.exitCode).toBe(3);
  expect(result.killed).toBeNull();
});

test('without network where the machine allows it: a server on the host loopback is unreachable', async () => {
  const server = net.createServer((socket) => socket.end('reached'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  try {
    const probe = `node -e "require('net').connect(${port}, '127.0.0.1').on('data', d => console.log(String(d))).on('error', e => console.log('refused ' + e.code))"`;
    const result = await run(probe);
    if (networkIsolationAvailable()) {
      expect(result.network).toBe('netns');
      expect(result.outputTail).toMatch(/refused/);
    } else {
      expect(result.network).toBe('none');
      expect(result.outputTail).toContain('reached');
    }
    const host = await run(probe, { network: 'host' });
    expect(host.outputTail).toContain('reached');
  } finally {
    server.close();
  }
});

/** A process's state letter from /proc (`Z`: dead, waiting to be reaped), or `gone`. */
function stateOf(pid: number): string {
  try {
    return /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? 'gone';
  } catch {
    return 'gone';
  }
}
