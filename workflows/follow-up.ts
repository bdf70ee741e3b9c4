import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { ACTIVITY_RETRY, LEVEL_ACTIVITY_RETRY } from './activity-retry';
import { JOB_ROLE, type FollowUpInput } from './definitions';
import type { Emit } from './emit';

/*
 * A job's part in follow-up policies (docs/follow-up-policies.md). Everything here runs only for a job whose input has
 * `followUp` (started by a policy) or that received the `followUp` signal, behind FOLLOW_UP_POLICIES_PATCH, so the
 * commands of every other job are unchanged.
 */

// The wait lasts as long as the job it follows runs: a long activity that heartbeats, so a lost worker's wait is
// taken up by another within a minute, and a cancel of the waiting job reaches it at its next heartbeat.
const { awaitJobEnd } = proxyActivities<Activities>({
  startToCloseTimeout: '30 days',
  heartbeatTimeout: '1 minute',
  retry: ACTIVITY_RETRY,
});
const { carriedManifestOf } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: ACTIVITY_RETRY });
// As for a fork's restore (workflows/fork.ts): it heartbeats per file.
const { restoreForkWorkspace } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: LEVEL_ACTIVITY_RETRY,
});

/** Before the job runs anything: the job it follows has ended (the job stays `queued` meanwhile). */
export async function awaitPredecessor(followUp: FollowUpInput): Promise<void> {
  if (followUp.after) await awaitJobEnd({ jobId: followUp.after.jobId });
}

/** Once the job runs: an interrupt's successor restores the workspace it carries, then the policy is recorded. */
export async function startFollowUp(jobId: string, followUp: FollowUpInput, emit: Emit): Promise<void> {
  const after = followUp.after;
  let manifest: string | null = null;
  if (after?.carryWorkspace) {
    manifest = await carriedManifestOf({ jobId: after.jobId });
    if (manifest) await restoreForkWorkspace({ jobId, manifestSha256: manifest });
  }
  await emit(JOB_ROLE, 'follow_up_applied', {
    policy: followUp.policy,
    prompt_id: followUp.promptId,
    delivered: 'new_job',
    ...(after ? { after_job_id: after.jobId } : {}),
    ...(after?.carryWorkspace ? { carried_manifest_sha256: manifest } : {}),
  });
}
