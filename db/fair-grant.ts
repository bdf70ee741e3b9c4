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
  /** The job's project; null or absent: no project, so no project limit applies. */
  projectSlug?: string | null;
}

/** A project's key in `runningByProject` and `projectLimit`: slugs are unique within an org only. */
export function projectKey(orgId: string, projectSlug: string): string {
  return `${orgId}\u0000${projectSlug}`;
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
  /** Running jobs per project (`projectKey`); absent: none. */
  runningByProject?: ReadonlyMap<string, number>;
  /** A project's own limit (set by an admin); undefined: none, only its org's limit applies. */
  projectLimit?: (orgId: string, projectSlug: string) => number | undefined;
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
 * A job whose project is at its own limit is passed over, not waited behind: its org's next job of another project
 * (or the next org) takes the slot, so one project's backlog does not hold up the rest of its org.
 */
export function chooseGrants(input: GrantInput): string[] {
  const running = new Map(input.running);
  const runningByProject = new Map(input.runningByProject);
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
  const projectRoom = (job: QueuedJob) => {
    if (!job.projectSlug || !input.projectLimit) return true;
    const limit = input.projectLimit(job.orgId, job.projectSlug);
    return limit === undefined || (runningByProject.get(projectKey(job.orgId, job.projectSlug)) ?? 0) < limit;
  };
  const granted: string[] = [];
  // A counter stands in for the clock: grants made in this pass are more recent than any before it.
  let tick = Number.MAX_SAFE_INTEGER / 2;
  while (input.totalLimit === undefined || total < input.totalLimit) {
    // Each org's next job that may run: the first in its queue whose project has room.
    const candidates = [...queues.entries()].flatMap(([org, queue]) => {
      if (!room(org)) return [];
      const index = queue.findIndex(projectRoom);
      return index < 0 ? [] : [{ org, queue, index, job: queue[index]! }];
    });
    if (candidates.length === 0) break;
    const chosen = input.fair
      ? candidates.sort(
          (a, b) =>
            (running.get(a.org) ?? 0) - (running.get(b.org) ?? 0) ||
            (lastGrant.get(a.org) ?? -1) - (lastGrant.get(b.org) ?? -1) ||
            a.job.seq - b.job.seq,
        )[0]!
      : candidates.reduce((best, c) => (c.job.seq < best.job.seq ? c : best));
    chosen.queue.splice(chosen.index, 1);
    const job = chosen.job;
    granted.push(job.jobId);
    running.set(job.orgId, (running.get(job.orgId) ?? 0) + 1);
    if (job.projectSlug) {
      const key = projectKey(job.orgId, job.projectSlug);
      runningByProject.set(key, (runningByProject.get(key) ?? 0) + 1);
    }
    lastGrant.set(job.orgId, (tick += 1));
    total += 1;
  }
  return granted;
}

/**
 * Why a queued job waits: its org is at its limit, its project is at its own limit, or every slot of the deployment is
 * taken.
 */
export type WaitReason = 'org_limit' | 'project_limit' | 'total_limit';
