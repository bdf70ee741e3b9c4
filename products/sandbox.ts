/**
 * The build sandbox: runs a template's build or test command in a job's workspace as a child process that cannot
 * see Keel's secrets, cannot run past its time limit, cannot flood memory with output and, where the machine
 * allows unprivileged user namespaces, cannot reach the network. docs/product-builds.md says what this isolates,
 * what it does not, and what a production deployment should use instead (a container or microVM per build).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface SandboxRun {
  /** Runs with `sh -c`, in `cwd`. */
  command: string;
  cwd: string;
  /** Past this the whole process group is killed (SIGKILL). */
  timeoutMs: number;
  /** Past this many bytes of combined output the whole process group is killed. */
  outputCapBytes: number;
  /** How much of the end of the output the result keeps. */
  tailBytes?: number;
  /** Folders put before the system's on PATH (node's own folder is always first). */
  toolPaths?: string[];
  /** `auto`: no network when the machine allows it; `off`: refuse to run without network isolation. */
  network?: 'auto' | 'off' | 'host';
  /** Aborting kills the whole process group at once (a cancelled activity); the result says `killed: 'aborted'`. */
  signal?: AbortSignal;
}

export interface SandboxResult {
  /** The command's exit code; null when it was killed. */
  exitCode: number | null;
  signal: string | null;
  /** Why Keel killed it, if it did. */
  killed: 'timeout' | 'output_cap' | 'aborted' | null;
  outputTail: string;
  outputBytes: number;
  durationMs: number;
  /** How the network was cut: `netns` (a fresh network namespace with only loopback) or `none`. */
  network: 'netns' | 'none';
}

const SYSTEM_PATH = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
/**
 * coreutils' `timeout` wraps every command as a backstop, a few seconds past Keel's own timer: the command leads its
 * own process group, so if the worker that spawned it dies (SIGKILL), nothing else would ever stop it.
 */
const TIMEOUT_BIN = ['/usr/bin/timeout', '/bin/timeout'].find((p) => existsSync(p));
const BACKSTOP_GRACE_S = 5;
const DEFAULT_TAIL_BYTES = 4_000;

let netnsSupport: boolean | undefined;

/** Whether this machine lets an unprivileged process take a fresh network namespace (checked once). */
export function networkIsolationAvailable(): boolean {
  if (netnsSupport === undefined) {
    const probe = spawnSync('unshare', ['--user', '--map-root-user', '--net', 'true'], { stdio: 'ignore', env: {} });
    netnsSupport = probe.status === 0;
  }
  return netnsSupport;
}

/** Keeps the last `max` bytes of a stream without holding the rest. */
class Tail {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly max: number) {}
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - (this.chunks[0]?.length ?? 0) >= this.max && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
    }
  }
  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.max)).toString('utf8');
  }
}

/**
 * Runs one command in the sandbox and resolves when it and every process it started are gone. Never rejects for the
 * command's own failure (that is the result); rejects only when the sandbox cannot be set up.
 */
export async function runInSandbox(run: SandboxRun): Promise<SandboxResult> {
  const wantIsolation = run.network ?? 'auto';
  const isolate = wantIsolation !== 'host' && networkIsolationAvailable();
  if (wantIsolation === 'off' && !isolate) {
    throw new Error('network isolation was required but this machine does not allow user namespaces');
  }
  // HOME and TMPDIR are fresh and private, so tools that write caches or read dotfiles see nothing of the worker's.
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'keel-build-'));
  await mkdir(path.join(scratch, 'home'));
  await mkdir(path.join(scratch, 'tmp'));
  const env: NodeJS.ProcessEnv = {
    PATH: [path.dirname(process.execPath), ...(run.toolPaths ?? []), ...SYSTEM_PATH].join(':'),
    HOME: path.join(scratch, 'home'),
    TMPDIR: path.join(scratch, 'tmp'),
    LANG: 'C.UTF-8',
    CI: 'true',
    NO_COLOR: '1',
  };
  const ip = ['/usr/sbin/ip', '/sbin/ip', '/usr/bin/ip', '/bin/ip'].find((p) => existsSync(p));
  // In a fresh network namespace even loopback starts down; bring it up so a service's own tests can listen.
  const script = isolate && ip ? `${ip} link set lo up >/dev/null 2>&1 || true\n${run.command}` : run.command;
  const sandboxed = isolate
    ? ['unshare', '--user', '--map-root-user', '--net', '--', '/bin/sh', '-c', script]
    : ['/bin/sh', '-c', script];
  const backstop = TIMEOUT_BIN
    ? [TIMEOUT_BIN, '-s', 'KILL', `${Math.ceil(run.timeoutMs / 1000) + BACKSTOP_GRACE_S}s`]
    : [];
  const [file, ...args] = [...backstop, ...sandboxed] as [string, ...string[]];

  const started = process.hrtime.bigint();
  const tail = new Tail(run.tailBytes ?? DEFAULT_TAIL_BYTES);
  let outputBytes = 0;
  let killed: SandboxResult['killed'] = null;
  try {
    return await new Promise<SandboxResult>((resolve, reject) => {
      // detached: the child leads its own process group, so one kill reaches everything it started.
      const child = spawn(file, args, {
        cwd: run.cwd,
        env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const killGroup = () => {
        if (child.pid === undefined) return;
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // the group is already gone
        }
      };
      const onOutput = (chunk: Buffer) => {
        outputBytes += chunk.length;
        tail.push(chunk);
        if (outputBytes > run.outputCapBytes && !killed) {
          killed = 'output_cap';
          killGroup();
        }
      };
      child.stdout.on('data', onOutput);
      child.stderr.on('data', onOutput);
      const timer = setTimeout(() => {
        killed ??= 'timeout';
        killGroup();
      }, run.timeoutMs);
      const abort = () => {
        killed ??= 'aborted';
        killGroup();
      };
      if (run.signal?.aborted) abort();
      run.signal?.addEventListener('abort', abort, { once: true });
      child.on('error', (err) => {
        clearTimeout(timer);
        run.signal?.removeEventListener('abort', abort);
        reject(err);
      });
      // Anything the command left running in the background dies with it; `close` then follows once pipes drain.
      child.on('exit', killGroup);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        run.signal?.removeEventListener('abort', abort);
        resolve({
          exitCode: killed ? null : code,
          signal,
          killed,
          outputTail: tail.text(),
          outputBytes,
          durationMs: Number((process.hrtime.bigint() - started) / 1_000_000n),
          network: isolate ? 'netns' : 'none',
        });
      });
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
