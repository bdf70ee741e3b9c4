import { ApplicationFailure, Context, sleep } from '@temporalio/activity';
import type { Pool } from 'pg';
import { carriedManifest } from '../db/follow-up';
import { isTerminalStatus, setJobStatus, type JobStatus, type JobUsage } from '../db/jobs';
import { archiveRunGraph } from '../events/run-graph-store';
import { JOB_NOT_RECORDED } from '../pure/contracts';

/**
 * How long a status write waits for its job's row before it reports the row missing. A submission commits its rows
 * only after the Temporal start has returned (jobs/record-and-start.ts), so a worker's first write often runs a few
 * milliseconds before that commit; waiting here, instead of failing, spares the job the workflow's retry timer (its
 * history events and its 250 ms) and the worker log its warning for a failure that was not one.
 */
export const ROW_APPEAR_WAIT_MS = 1_000;

/** How often a job queued behind another looks whether that one has ended. */
export const AWAIT_JOB_POLL_MS = 500;

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
      const write = () =>
        setJobStatus(deps.pool, input.jobId, input.status, {
          summary: input.summary,
          error: input.error,
          usage: input.usage,
        });
      let found = await write();
      for (let waited = 0, delay = 5; !found && waited < ROW_APPEAR_WAIT_MS; waited += delay, delay *= 2) {
        await sleep(Math.min(delay, ROW_APPEAR_WAIT_MS - waited));
        found = await write();
      }
      if (!found) {
        throw ApplicationFailure.create({ type: JOB_NOT_RECORDED, message: `job ${input.jobId} has no row yet` });
      }
    },
    /** Builds and keeps the run graph of a job that is ending with `outcome` (rebuilt if run again). */
    async archiveRunGraph(input: { jobId: string; outcome: 'completed' | 'failed' | 'cancelled' }): Promise<void> {
      await archiveRunGraph(deps.pool, input.jobId, input.outcome);
    },
    /**
     * Returns once `jobId` has ended (its row's status is terminal, or it has none). A job queued behind it by a
     * follow-up policy waits here; the poll heartbeats, so a cancel of the waiting job stops it.
     */
    async awaitJobEnd(input: { jobId: string }): Promise<void> {
      const context = Context.current();
      for (;;) {
        const { rows } = await deps.pool.query<{ status: string }>('SELECT status FROM job_runs WHERE job_id = $1', [
          input.jobId,
        ]);
        if (!rows[0] || isTerminalStatus(rows[0].status)) return;
        context.heartbeat();
        await context.sleep(AWAIT_JOB_POLL_MS);
      }
    },
    /** The workspace manifest a job carrying `jobId`'s workspace restores (db/follow-up.ts); null for none. */
    async carriedManifestOf(input: { jobId: string }): Promise<string | null> {
      return carriedManifest(deps.pool, input.jobId);
    },
  };
}
