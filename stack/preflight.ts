import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

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
