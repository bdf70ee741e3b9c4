/**
 * One follow-up decision at a time per workflow (docs/follow-up-policies.md): what a prompt does depends on the
 * workflow's unfinished job, and that job may be the one the previous prompt just started, so racing prompts are
 * decided one after the other under a lease row (db/follow-up.ts). A lease rather than an advisory lock on a held
 * connection: the embedded database serves one session, and a busy pool must not be held by waiters.
 */
import type { Pool } from 'pg';
import { newLeaseHolder, releaseFollowUpLease, tryTakeFollowUpLease } from '../db/follow-up';
import { Unavailable } from '../refusals/refusal';

/**
 * Longer than one decision can take (a Temporal start, or a delivery's 20 s deadline, with room), so a live holder
 * never loses it; a holder that died frees the workflow after it.
 */
export const FOLLOW_UP_LEASE_MS = 60_000;
/** How long a prompt waits its turn before it is refused (503, retry). */
export const FOLLOW_UP_WAIT_MS = 45_000;
const FIRST_RETRY_MS = 10;
const MAX_RETRY_MS = 200;

export async function withFollowUpLease<T>(pool: Pool, workflowId: string, decide: () => Promise<T>): Promise<T> {
  const holder = newLeaseHolder();
  const deadline = Date.now() + FOLLOW_UP_WAIT_MS;
  for (let delay = FIRST_RETRY_MS; !(await tryTakeFollowUpLease(pool, workflowId, holder, FOLLOW_UP_LEASE_MS));) {
    if (Date.now() + delay > deadline) {
      throw new Unavailable('workflow_busy', `workflow ${workflowId} is still deciding an earlier prompt; retry`);
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  }
  try {
    return await decide();
  } finally {
    // A failure to release only delays the next prompt until the lease expires.
    await releaseFollowUpLease(pool, workflowId, holder).catch(() => undefined);
  }
}
