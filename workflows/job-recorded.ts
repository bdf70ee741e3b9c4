import { proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { failureChain } from '../pure/failure-chain';
import { JOB_RECORD_WAIT_MS } from '../pure/job-record';
import { ACTIVITY_RETRY } from './activity-retry';
import { JOB_NOT_RECORDED } from './definitions';

// A missing row comes back to the workflow at once, so the wait below is bounded by the workflow's clock rather than
// by an activity retrying without end.
const { markJobStatus } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { ...ACTIVITY_RETRY, nonRetryableErrorTypes: [JOB_NOT_RECORDED] },
});

/**
 * A job's first status write, `running`, once its row exists. Returns false when the row has not appeared
 * `waitMs` after the workflow started: its submission never committed (the API died between the Temporal start and
 * the commit), so the workflow has nothing to report to and ends. Any other failure (the database down) is thrown
 * after the usual retries, as before.
 */
export async function markRunningOnceRecorded(jobId: string, waitMs = JOB_RECORD_WAIT_MS): Promise<boolean> {
  const deadline = workflowInfo().startTime.getTime() + waitMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 5_000)) {
    try {
      await markJobStatus({ jobId, status: 'running' });
      return true;
    } catch (err) {
      if (![...failureChain(err)].some((link) => link.type === JOB_NOT_RECORDED)) throw err;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await sleep(Math.min(delay, left));
    }
  }
}
