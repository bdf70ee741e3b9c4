import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { KEEL_SEARCH_ATTRIBUTES } from '../pure/search-attributes';

/**
 * Dynamic configuration Keel runs the dev server with (docs/job-history.md, "The dev server's per-task wait"):
 * - `history.transferProcessorMaxPollRPS` (default 20 per shard; the dev server has one shard) paces how often the
 *   history service reads its transfer queue, the path from a recorded event to a task handed to a waiting poller.
 *   At 20 reads a second every workflow task and every activity task waited up to 50 ms (~40 ms measured) before a
 *   poller saw it; a job is a chain of a few hundred such tasks.
 * - `system.enableActivityEagerExecution`: an activity scheduled by a workflow task on a worker with a free slot is
 *   handed back in the task's completion, skipping the transfer queue and matching altogether.
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, string>> = {
  'history.transferProcessorMaxPollRPS': '1000',
  'system.enableActivityEagerExecution': 'true',
};

/** `DEV_SERVER_DYNAMIC_CONFIG` as `temporal server start-dev` arguments. */
export function devServerDynamicConfigArgs(): string[] {
  return Object.entries(DEV_SERVER_DYNAMIC_CONFIG).flatMap(([key, value]) => [
    '--dynamic-config-value',
    `${key}=${value}`,
  ]);
}

/**
 * Where a running dev server's pid is kept: its process outlives a Keel killed with SIGKILL (it leads its own process
 * group, below), and the next start on the same data directory finds it here and stops it (stack/preflight.ts).
 */
export function devServerPidPath(dataDir: string): string {
  return path.join(dataDir, 'temporal-dev-server.pid');
}

/** What the pid file holds: the pid, and the database file that tells this data directory's server from another. */
export interface DevServerPidRecord {
  pid: number;
  dbFile: string;
}

export interface DevServer {
  address: string;
  uiUrl: string;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  cliPath: string;
  dataDir: string;
  port: number;
  uiPort: number;
  namespace: string;
  /** How long to wait for the frontend to answer before giving up. */
  readyTimeoutMs?: number;
}

/**
 * Starts the official Temporal dev server (with its Web UI) persisting to a SQLite file under
 * `dataDir`, registers Keel's search attributes, and resolves once the frontend answers.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  fs.mkdirSync(options.dataDir, { recursive: true });
  const logPath = path.join(options.dataDir, 'temporal.log');
  const dbFile = path.join(options.dataDir, 'temporal.sqlite');
  const log = fs.openSync(logPath, 'a');
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--ui-port',
    String(options.uiPort),
    '--db-filename',
    dbFile,
    '--namespace',
    options.namespace,
    '--log-level',
    'warn',
    ...devServerDynamicConfigArgs(),
    ...KEEL_SEARCH_ATTRIBUTES.flatMap((key) => ['--search-attribute', `${key.name}=Keyword`]),
  ];
  // Its own process group: Ctrl-C in the terminal signals the whole foreground group, and the dev server must not
  // stop before the worker and API that use it have drained; it is stopped last, by `stop()`.
  const child = spawn(options.cliPath, args, { stdio: ['ignore', log, log], detached: true });
  fs.closeSync(log);
  const pidFile = devServerPidPath(options.dataDir);
  if (child.pid !== undefined) {
    const record: DevServerPidRecord = { pid: child.pid, dbFile };
    fs.writeFileSync(pidFile, `${JSON.stringify(record)}\n`);
  }
  const forget = () => fs.rmSync(pidFile, { force: true });
  // Whatever way this process ends that still runs its code (a second Ctrl-C, a crash), the dev server does not
  // outlive it. Only SIGKILL skips this; the pid file covers that.
  const killOnExit = () => {
    signalGroup(child, 'SIGKILL');
    forget();
  };
  process.once('exit', killOnExit);
  const address = `127.0.0.1:${options.port}`;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await waitUntilReady(address, child, exited, options.readyTimeoutMs ?? 60_000, logPath);
  } catch (err) {
    killOnExit();
    process.off('exit', killOnExit);
    throw err;
  }
  return {
    address,
    uiUrl: `http://localhost:${options.uiPort}`,
    stop: async () => {
      await stopChild(child, exited);
      forget();
      process.off('exit', killOnExit);
    },
  };
}

async function waitUntilReady(
  address: string,
  child: ChildProcess,
  exited: Promise<number | null>,
  timeoutMs: number,
  logPath: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined || child.exitCode !== null) {
      throw new Error(`the Temporal dev server exited (code ${exitCode ?? child.exitCode}); see ${logPath}`);
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`the Temporal dev server did not answer on ${address} within ${timeoutMs} ms: ${String(lastError)}`);
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Signals the child's whole process group (it leads one: spawned detached). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  signalDevServer(child.pid, signal);
}

/**
 * Signals a dev server's whole process group (it leads one, with its UI and children), or the process alone when the
 * group is gone; a server already gone is nothing to signal. Also used on a leftover of a killed start
 * (stack/preflight.ts).
 */
export function signalDevServer(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone in between: nothing left to stop.
    }
  }
}
