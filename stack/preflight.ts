import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { devServerPidPath, signalDevServer, type DevServerPidRecord } from '../temporal/dev-server';

/** A port `npm start` will listen on, named by the variable that moves it. */
export interface PortClaim {
  variable: string;
  host: string;
  port: number;
}

export class StartRefused extends Error {
  override name = 'StartRefused';
}

/**
 * Refuses at once when a port is taken, naming the variable to change, so a second `npm start` never half-starts
 * (and never hands its worker to a Temporal server some other process runs). Port 0 means "any" and is skipped.
 */
export async function ensurePortsFree(claims: PortClaim[]): Promise<void> {
  const busy: string[] = [];
  for (const claim of claims) {
    if (claim.port === 0) continue;
    if (!(await canListen(claim.host, claim.port))) busy.push(`${claim.host}:${claim.port} (${claim.variable})`);
  }
  if (busy.length === 0) return;
  const variables = [...new Set(busy.map((b) => b.slice(b.indexOf('(') + 1, -1)))];
  throw new StartRefused(
    `port already in use: ${busy.join(', ')}; is another Keel running? Stop it, or set ${variables.join(', ')} to a free port`,
  );
}

function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'keel.lock');
}

/**
 * Takes DATA_DIR for this process: a lock file holding our pid, created exclusively. A lock whose pid is gone is
 * stale (a killed start) and is taken over; a live one refuses, naming DATA_DIR. Returns the release.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = lockPath(dataDir);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => {
        if (readLockPid(file) === process.pid) fs.rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readLockPid(file);
      if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
        throw new StartRefused(
          `data directory ${dataDir} is in use by Keel process ${holder} (${file}); stop that one, or set DATA_DIR to another directory`,
        );
      }
      fs.rmSync(file, { force: true });
    }
  }
  throw new StartRefused(`could not lock ${file}; set DATA_DIR to another directory`);
}

function readLockPid(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, owned by someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How long a leftover dev server gets to stop on SIGTERM before it is killed. */
const LEFTOVER_STOP_MS = 5_000;

/**
 * Stops a Temporal dev server that an earlier start on `dataDir` left running (that start was killed with SIGKILL, so
 * none of its own shutdown ran) and returns its pid, or undefined when there was none. Call it holding the data
 * directory's lock: no live Keel owns a server recorded there then. A recorded pid is stopped only while its command
 * line is still `temporal server start-dev` on this directory's database, so a pid the system has since reused for
 * something else is never signalled.
 */
export async function stopLeftoverDevServer(dataDir: string): Promise<number | undefined> {
  const file = devServerPidPath(dataDir);
  let record: DevServerPidRecord;
  try {
    record = JSON.parse(fs.readFileSync(file, 'utf8')) as DevServerPidRecord;
  } catch {
    return undefined;
  }
  const { pid, dbFile } = record;
  const running = Number.isInteger(pid) && pid > 0 && isAlive(pid) && isDevServerOf(pid, dbFile);
  if (running) {
    signalDevServer(pid, 'SIGTERM');
    const deadline = Date.now() + LEFTOVER_STOP_MS;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    if (isAlive(pid)) signalDevServer(pid, 'SIGKILL');
    const killDeadline = Date.now() + LEFTOVER_STOP_MS;
    while (isAlive(pid) && Date.now() < killDeadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (isAlive(pid)) {
      throw new StartRefused(
        `the Temporal dev server (pid ${pid}) an earlier start on ${dataDir} left running did not stop; stop it, then start again`,
      );
    }
  }
  fs.rmSync(file, { force: true });
  return running ? pid : undefined;
}

/** The process's command line: /proc where there is one (Linux), `ps` elsewhere (macOS). */
function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    const ps = spawnSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' });
    return ps.status === 0 ? ps.stdout : '';
  }
}

function isDevServerOf(pid: number, dbFile: string): boolean {
  const command = commandLine(pid);
  return command.includes('start-dev') && command.includes(dbFile);
}
