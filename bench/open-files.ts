// A bench that holds thousands of sockets needs as many file descriptors in each of its processes: every stream is one
// socket in the client (the bench process) and one in the server it streams from. Node raises its own soft
// RLIMIT_NOFILE to the hard limit when it starts (so `ulimit -n` in the shell does not bound it), and the servers it
// starts do the same: the hard limit is what a run can use, and the bench checks it before it opens anything.
import fs from 'node:fs';

/** Descriptors a Node process uses besides its sockets: stdio, the event loop's, pools, Redis, module files. */
export const BASE_OPEN_FILES = 256;

/** The soft and hard RLIMIT_NOFILE of this process, from /proc (Linux); `Infinity` for "unlimited". */
export function openFileLimits(): { soft: number; hard: number } {
  const line = /^Max open files\s+(\S+)\s+(\S+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
  const value = (raw: string | undefined) => (raw === undefined || raw === 'unlimited' ? Infinity : Number(raw));
  return { soft: value(line?.[1]), hard: value(line?.[2]) };
}

/**
 * Says how many open files `what` need and what this process may open; throws, naming the limit to raise, when that
 * is too few (rather than letting the run fail later with EMFILE on some socket).
 */
export function ensureOpenFiles(needed: number, what: string): void {
  const { soft, hard } = openFileLimits();
  if (soft >= needed) {
    console.log(`open files: ${what} need about ${needed} per process; the limit here is ${soft}`);
    return;
  }
  throw new Error(
    `${what} need about ${needed} open files in each process, and this one may open ${soft} (hard limit ${hard}; ` +
      `Node raises its soft limit to the hard one itself). Raise the hard limit (as root: \`ulimit -Hn ${needed}\` ` +
      `before starting the bench, systemd LimitNOFILE=, or nofile in /etc/security/limits.conf) or measure fewer ` +
      `streams (--levels).`,
  );
}
