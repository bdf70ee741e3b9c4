// The bare baseline of bench/job.ts: a job's shape on Temporal with none of Keel's work. The parent runs one child
// workflow per level, one after another, and each child runs its level's number of activities, one after another;
// every activity returns at once. Bundled by the bench's own worker (workflowsPath), never by Keel's.
import { executeChild, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { BareActivities } from './bare-activities';

// The options of Keel's most frequent activity (appendEvent); a no-op never fails, so only the timeout matters.
const { noop } = proxyActivities<BareActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/** One bare level: `activities` no-op activities in sequence. */
export async function bareLevel(activities: number): Promise<number> {
  for (let i = 0; i < activities; i += 1) await noop();
  return activities;
}

/** One bare job: a child per entry of `levels` (its activity count), in sequence; returns the activities run. */
export async function bareJob(levels: number[]): Promise<number> {
  const jobId = workflowInfo().workflowId;
  let total = 0;
  for (const [i, activities] of levels.entries()) {
    total += await executeChild(bareLevel, { workflowId: `${jobId}/level-${i + 1}`, args: [activities] });
  }
  return total;
}

/** A child that does nothing: what a child costs its parent's history, with no work of its own. */
export async function bareChild(): Promise<void> {}

/**
 * The floor of a job workflow's history: `children` no-op children in sequence, no activities, no markers. Its event
 * count minus that of `bareShape(0)` is what Temporal itself writes into the parent per sequential child.
 */
export async function bareShape(children: number): Promise<number> {
  const jobId = workflowInfo().workflowId;
  for (let i = 0; i < children; i += 1) await executeChild(bareChild, { workflowId: `${jobId}/child-${i + 1}` });
  return children;
}
