// Keel's production entry points (dist/stack/<name>.js) as processes of a bench's own, and what a bench reads of them.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export interface KeelProcess {
  pid: number;
  /** The last 20,000 characters it wrote, for a failure message. */
  output(): string;
  alive(): boolean;
  stop(): Promise<void>;
}

/**
 * Runs `dist/stack/<entry>.js` (`main` is `npm start`'s) with `env` and only PATH and HOME of this process's environment, as production does.
 * With `BENCH_CPU_PROF_DIR` set, each process writes a V8 CPU profile there when it stops (open it in Chrome DevTools
 * or speedscope), so a bench can say where a process's time went.
 */
export function startKeelProcess(entry: 'api-main' | 'worker-main' | 'main', env: Record<string, string>): KeelProcess {
  const root = path.resolve(__dirname, '..', '..');
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const profile = profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${entry}-${Date.now()}.cpuprofile`]
    : [];
  const child = spawn(process.execPath, [...profile, path.join(root, 'dist', 'stack', `${entry}.js`)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (piece: Buffer) => (output = (output + piece.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    pid: child.pid!,
    output: () => output,
    alive,
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves once `url` answers 200; fails with the process's output if it exits first, or after `timeoutMs`. */
export async function waitHealthy(process: KeelProcess, url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!process.alive()) throw new Error(`${url}: the process exited:\n${process.output()}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url}: not healthy in ${timeoutMs} ms:\n${process.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** CPU time (user + system, ms) a process has used so far, from /proc; Linux counts it in 10 ms ticks. */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * How long (ms) a process's main thread (the event loop) has so far waited on a run queue: runnable, but every core
 * busy with something else. From /proc/<pid>/schedstat (nanoseconds; needs a kernel with schedstats, as Linux has).
 */
export async function runQueueWaitMs(pid: number | 'self'): Promise<number> {
  const [, waitNs] = (await fs.readFile(`/proc/${pid}/schedstat`, 'utf8')).trim().split(' ');
  return Number(waitNs) / 1e6;
}
