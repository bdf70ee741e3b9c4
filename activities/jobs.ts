import { ApplicationFailure } from '@temporalio/activity';
import type { Pool } from 'pg';
import { setJobStatus, type JobStatus, type JobUsage } from '../db/jobs';
import { archiveRunGraph } from '../events/run-graph-store';
import { JOB_NOT_RECORDED } from '../workflows/definitions';

export function jobActivities(deps: { pool: Pool }) {
  return {
    /** Records a job's status; a terminal status is never overwritten. Retries until the job row exists. */
    async markJobStatus(input: {
      jobId: string;
      status: JobStatus;
      summary?: string;
      error?: unknown;
      usage?: JobUsage;
    }): Promise<void> {
      const found = await setJobStatus(deps.pool, input.jobId, input.status, {
        summary: input.summary,
        error: input.error,
        usage: input.usage,
      });
      if (!found) {
        throw ApplicationFailure.create({ type: JOB_NOT_RECORDED, message: `job ${input.jobId} has no row yet` });
      }
    },
    /** Builds and keeps the run graph of a job that is ending with `outcome` (rebuilt if run again). */
    async archiveRunGraph(input: { jobId: string; outcome: 'completed' | 'failed' | 'cancelled' }): Promise<void> {
      await archiveRunGraph(deps.pool, input.jobId, input.outcome);
    },
  };
}
