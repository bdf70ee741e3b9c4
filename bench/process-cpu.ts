// CPU time of processes from /proc (Linux), for benches that account a run's CPU across processes.
import fs from 'node:fs';

/** Linux clock ticks per second of /proc/<pid>/stat's utime and stime. */
const TICKS_PER_SECOND = 100;

/** User + system CPU ms of a process (all its threads) from /proc, or 0 where /proc cannot tell. */
export function processCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Child processes of this one (the dev server the SDK spawned), from /proc. */
export function childPids(): number[] {
  try {
    return fs
      .readdirSync('/proc')
      .filter((entry) => /^[0-9]+$/.test(entry))
      .filter((entry) => {
        try {
          const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/** This process's own CPU ms (user + system). */
export function ownCpuMs(): number {
  const own = process.cpuUsage();
  return (own.user + own.system) / 1000;
}
