import { sleep } from '@temporalio/activity';
import type { Pool } from 'pg';
import { claimSlot, releaseSlots, type SlotClaim, type SlotPolicy, type SlotRequest } from '../db/job-slots';
import { ROW_APPEAR_WAIT_MS } from './jobs';
import { jobQueueWaitSeconds } from '../metrics/series';

/** A job's slot (docs/scheduling.md): claimed before its first level, released however it ends. */
export function jobSlotActivities(deps: { pool: Pool }) {
  return {
    /** Adds the job to its org's queue (once), grants free slots, and says where the job stands. Idempotent. */
    async claimJobSlot(input: {
      request: SlotRequest;
      policy: SlotPolicy;
    }): Promise<SlotClaim & { recorded: boolean }> {
      const claim = await claimSlot(deps.pool, input.request, input.policy);
      // A job claims until it first sees its grant, so each wait is observed once (twice only for a retried claim).
      if (claim.state === 'running') jobQueueWaitSeconds.observe({ org: input.request.orgId }, claim.waitedMs / 1000);
      // A queued job announces itself with an event, which needs its row: the submission commits it just after the
      // Temporal start (jobs/record-and-start.ts), so wait for it a moment, as the first status write does.
      return { ...claim, recorded: claim.state !== 'queued' || (await rowAppears(deps.pool, input.request.jobId)) };
    },
    /** Releases the jobs' slots and grants the freed ones; the jobs granted, for the caller to signal. Idempotent. */
    async releaseJobSlots(input: { jobIds: string[]; policy: SlotPolicy }): Promise<string[]> {
      return releaseSlots(deps.pool, input.jobIds, input.policy);
    },
  };
}

async function rowAppears(pool: Pool, jobId: string): Promise<boolean> {
  const exists = async () => (await pool.query('SELECT 1 FROM job_runs WHERE job_id = $1', [jobId])).rowCount! > 0;
  for (let waited = 0, delay = 5; waited < ROW_APPEAR_WAIT_MS; waited += delay, delay *= 2) {
    if (await exists()) return true;
    await sleep(Math.min(delay, ROW_APPEAR_WAIT_MS - waited));
  }
  return exists();
}
