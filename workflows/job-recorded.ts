import { proxyActivities, proxyLocalActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { failureChain } from '../pure/failure-chain';
import { JOB_RECORD_WAIT_MS } from '../pure/job-record';
import { ACTIVITY_RETRY } from './activity-retry';
import { JOB_NOT_RECORDED } from './definitions';

// A missing row comes back to the workflow at once, so the wait below is bounded by the workflow's clock rather than
// by an activity retrying without end.
const FIRST_WRITE = {
  startToCloseTimeout: '10 seconds' as const,
  retry: { ...ACTIVITY_RETRY, nonRetryableErrorTypes: [JOB_NOT_RECORDED] },
};
const { markJobStatus } = proxyActivities<Activities>(FIRST_WRITE);
// The same write as a local activity: one marker in the job's history instead of an activity's three events and the
// workflow task that follows them; it is an idempotent update, run again after a lost worker like the other
// bookkeeping (docs/job-history.md).
const { markJobStatus: markJobStatusLocally } = proxyLocalActivities<Activities>(FIRST_WRITE);

/**
 * A job's first status write, `running`, once its row exists. Returns false when the row has not appeared
 * `waitMs` after the workflow started: its submission never committed (the API died between the Temporal start and
 * the commit), so the workflow has nothing to report to and ends. Any other failure (the database down) is thrown
 * after the usual retries, as before.
 */
export async function markRunningOnceRecorded(
  jobId: string,
  waitMs = JOB_RECORD_WAIT_MS,
  local = false,
): Promise<boolean> {
  const deadline = workflowInfo().startTime.getTime() + waitMs;
  const write = local ? markJobStatusLocally : markJobStatus;
  for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
    try {
      await write({ jobId, status: 'running' });
      return true;
    } catch (err) {
      if (![...failureChain(err)].some((link) => link.type === JOB_NOT_RECORDED)) throw err;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await sleep(Math.min(delay, left));
    }
  }
}
