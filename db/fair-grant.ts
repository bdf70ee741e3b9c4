/**
 * Which waiting jobs get the free slots (docs/scheduling.md). Pure: the database layer (db/job-slots.ts) reads the
 * rows under its lock and writes the grants this returns.
 */

/** A job waiting for a slot. `seq` is its enqueue order. */
export interface QueuedJob {
  jobId: string;
  orgId: string;
  priority: number;
  seq: number;
}

export interface GrantInput {
  queued: QueuedJob[];
  /** Running jobs per org. */
  running: ReadonlyMap<string, number>;
  /** The last grant per org (ms since the epoch); an org never granted has none and goes first among equals. */
  lastGrant: ReadonlyMap<string, number>;
  /** An org's concurrency limit; undefined: unlimited. */
  orgLimit: (orgId: string) => number | undefined;
  /** The deployment's limit over every org; undefined: unlimited. */
  totalLimit: number | undefined;
  /** Off: plain FIFO (enqueue order over every org, still within each org's limit), the bench's baseline. */
  fair: boolean;
}

/** A tenant's own queue: higher priority first, then enqueue order. */
export function byPriorityThenSeq(a: QueuedJob, b: QueuedJob): number {
  return b.priority - a.priority || a.seq - b.seq;
}

/**
 * The jobs to grant now, in grant order. Fair: each free slot goes to the org, among those with a waiting job and room
 * under their limit, with the fewest running jobs, ties to the org granted longest ago; within the org, priority then
 * enqueue order. So an org with a backlog never makes another org's first job wait for more than the next free slot.
 */
export function chooseGrants(input: GrantInput): string[] {
  const running = new Map(input.running);
  const lastGrant = new Map(input.lastGrant);
  let total = [...running.values()].reduce((a, b) => a + b, 0);
  const queues = new Map<string, QueuedJob[]>();
  const ordered = [...input.queued].sort(input.fair ? byPriorityThenSeq : (a, b) => a.seq - b.seq);
  for (const job of ordered) {
    const queue = queues.get(job.orgId) ?? [];
    queue.push(job);
    queues.set(job.orgId, queue);
  }
  const room = (org: string) => {
    const limit = input.orgLimit(org);
    return limit === undefined || (running.get(org) ?? 0) < limit;
  };
  const granted: string[] = [];
  // A counter stands in for the clock: grants made in this pass are more recent than any before it.
  let tick = Number.MAX_SAFE_INTEGER / 2;
  while (input.totalLimit === undefined || total < input.totalLimit) {
    const candidates = [...queues.entries()].filter(([org, queue]) => queue.length > 0 && room(org));
    if (candidates.length === 0) break;
    let chosen: QueuedJob;
    if (input.fair) {
      candidates.sort(
        ([a, qa], [b, qb]) =>
          (running.get(a) ?? 0) - (running.get(b) ?? 0) ||
          (lastGrant.get(a) ?? -1) - (lastGrant.get(b) ?? -1) ||
          qa[0]!.seq - qb[0]!.seq,
      );
      chosen = candidates[0]![1].shift()!;
    } else {
      const [, queue] = candidates.reduce((best, c) => (c[1][0]!.seq < best[1][0]!.seq ? c : best));
      chosen = queue.shift()!;
    }
    granted.push(chosen.jobId);
    running.set(chosen.orgId, (running.get(chosen.orgId) ?? 0) + 1);
    lastGrant.set(chosen.orgId, (tick += 1));
    total += 1;
  }
  return granted;
}

/** Why a queued job waits: its org is at its limit, or every slot of the deployment is taken. */
export type WaitReason = 'org_limit' | 'total_limit';
