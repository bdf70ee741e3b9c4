import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** A port nothing listens on right now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Whether `port` can be listened on right now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * A free port below Linux's ephemeral range (32768–60999), for a stack a test starts more than once on the same
 * ports. The kernel's own pick (`freePort`) comes from that range, which is also where every outgoing connection's
 * local port comes from: between two starts, one of the suite's many connections took an API port (CI: `listen
 * EADDRINUSE` on the third `npm start`). Below the range only a listener can take it.
 */
export async function steadyPort(taken: Set<number> = new Set()): Promise<number> {
  for (let tries = 0; tries < 200; tries += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!taken.has(port) && (await canListen(port))) return port;
  }
  return freePort();
}

/** The ports `npm start` listens on, each free, as its variables. */
export async function stackPorts(): Promise<Record<string, string>> {
  const names = ['API_PORT', 'AUTH_PORT', 'CONSOLE_PORT', 'TEMPORAL_DEV_PORT', 'TEMPORAL_UI_PORT'];
  const ports: Record<string, string> = {};
  const taken = new Set<number>();
  for (const name of names) {
    const port = await steadyPort(taken);
    taken.add(port);
    ports[name] = String(port);
  }
  return ports;
}

export interface StackProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/**
 * `npm start` from source (stack/main.ts) as a child process leading its own process group, as a terminal runs it, so
 * a test signals the group as Ctrl-C does. Only the variables given here and PATH reach it.
 */
export function spawnStack(env: Record<string, string>): StackProcess {
  const child = spawn(process.execPath, [path.join(__dirname, 'ts-entry.js'), path.join(root, 'stack', 'main.ts')], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return watched(child);
}

function watched(child: ChildProcess): StackProcess {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * `npm start` itself (npm, its prestart build check, then `node dist/stack/main.js`) leading a process group of its own,
 * as a process manager, an IDE's run button or `timeout` starts it: a test signals npm's pid alone, as they do.
 */
export function spawnNpmStart(env: Record<string, string>): StackProcess {
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      npm_config_update_notifier: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return watched(child);
}

/** Resolves once the stack printed "Keel is running.", or rejects with what it printed when it exited instead. */
export async function untilRunning(stack: StackProcess): Promise<void> {
  const running = new Promise<void>((resolve) => {
    const check = () => {
      if (stack.output().includes('Keel is running.')) resolve();
    };
    stack.child.stdout?.on('data', check);
    check();
  });
  const died = stack.exited.then((code) => {
    throw new Error(`npm start exited (${code}) before it ran:\n${stack.output()}`);
  });
  await Promise.race([running, died]);
}

export async function tempDataDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'keel-stack-'));
}
