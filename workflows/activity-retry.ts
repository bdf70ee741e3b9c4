import type { RetryPolicy } from '@temporalio/workflow';
import { INVALID_EVENT, JOB_NOT_RECORDED } from './definitions';

/**
 * How every Keel workflow retries its bookkeeping activities (status, events, run graphs): quickly at first, then
 * every ten seconds at most. A database outage is retried until the database is back (those writes will succeed
 * then); a failure that cannot succeed on a retry is not retried: an event its contract refuses, and a job row that
 * is missing after the job found it (workflows/job-recorded.ts waits for the row, with a bound, before the first
 * write).
 */
export const ACTIVITY_RETRY: RetryPolicy = {
  initialInterval: '500 milliseconds',
  backoffCoefficient: 2,
  maximumInterval: '10 seconds',
  nonRetryableErrorTypes: [INVALID_EVENT, JOB_NOT_RECORDED],
};

/**
 * The retry of a level's own bookkeeping (workspace tools, approvals, status): like ACTIVITY_RETRY, but it gives up
 * after about a minute and a quarter, so a level fails rather than hang on a database that stays away; a database
 * failover or restart fits well inside it.
 */
export const LEVEL_ACTIVITY_RETRY: RetryPolicy = { ...ACTIVITY_RETRY, maximumAttempts: 12 };
