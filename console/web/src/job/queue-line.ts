import type { JobQueue } from '../schemas';

/** "1 running job", "3 running jobs"; a limit the row does not carry reads "?". */
function runningJobs(limit: number | null | undefined): string {
  return limit == null ? '? running jobs' : `${limit} running job${limit === 1 ? '' : 's'}`;
}

const WAITING_FOR: Record<NonNullable<JobQueue['reason']>, (queue: JobQueue) => string> = {
  org_limit: (q) => `a slot under ${q.org_id}'s limit of running jobs`,
  project_limit: (q) =>
    `a slot under project ${q.project_slug ?? '?'}'s limit of ${runningJobs(q.project_limit)} ` +
    `(${q.org_id}'s other projects go on)`,
  total_limit: () => 'a free slot (every slot of the deployment is taken)',
};

/**
 * What a queued job's page says of its wait (docs/scheduling.md): its place in its org's queue (1 is next; with other
 * orgs waiting, the slot it is next for may go to them first) and why it waits. Null unless the job waits for a slot.
 */
export function queueLine(queue: JobQueue | null | undefined): string | null {
  if (queue?.state !== 'queued') return null;
  const place =
    queue.position === null ? `in ${queue.org_id}'s queue` : `position ${queue.position} in ${queue.org_id}'s queue`;
  const reason = queue.reason ? WAITING_FOR[queue.reason](queue) : 'a slot';
  return `Queued — ${place}, waiting for ${reason}`;
}
