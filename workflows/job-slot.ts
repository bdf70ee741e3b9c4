import {
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { ACTIVITY_RETRY } from './activity-retry';
import { JOB_ROLE, slotGrantedSignal, type JobScheduling } from './definitions';
import type { Emit } from './emit';
import { QUEUED_PROJECT_LIMIT_PATCH, SLOT_CLAIM_UNCANCELLED_PATCH } from './patches';

/*
 * A job's slot under fair scheduling (docs/scheduling.md): claimed before the job runs anything, released however the
 * job ends. Everything here runs only for a job whose input has `scheduling`, behind FAIR_SCHEDULING_PATCH.
 */

const { claimJobSlot, releaseJobSlots } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: ACTIVITY_RETRY,
});

export class JobSlot {
  /** Set by `slotGranted`; cleared before each claim, so a grant signalled while a claim runs is not missed. */
  private signalled = false;

  constructor(
    private readonly jobId: string,
    private readonly projectSlug: string | undefined,
    private readonly scheduling: JobScheduling,
  ) {
    setHandler(slotGrantedSignal, () => {
      this.signalled = true;
    });
  }

  private get policy() {
    const { orgSlots, totalSlots, fair } = this.scheduling;
    return { orgSlots, totalSlots, fair };
  }

  /**
   * Returns once the job holds a slot. A queued job says so once (`queued`, with its place and why) and waits for
   * `slotGranted`, claiming again every `reclaimMs` so a lost signal cannot strand it. A cancel while it waits
   * throws here, inside the job's try, so the job still ends with its error event (and `release` runs).
   */
  async acquire(emit: Emit): Promise<void> {
    let claim = await this.claim();
    if (claim.state !== 'queued') return;
    if (claim.recorded) {
      await emit(JOB_ROLE, 'queued', {
        position: claim.position,
        reason: claim.reason,
        org_limit: claim.orgLimit,
        ...(this.scheduling.totalSlots !== null ? { total_limit: this.scheduling.totalSlots } : {}),
        ...(claim.reason === 'project_limit' && patched(QUEUED_PROJECT_LIMIT_PATCH)
          ? { project: this.projectSlug ?? null, project_limit: claim.projectLimit }
          : {}),
      });
    }
    while (claim.state === 'queued') {
      setCurrentDetails(`Queued: position ${claim.position} in org **${this.scheduling.orgId}** (${claim.reason})`);
      await condition(() => this.signalled, this.scheduling.reclaimMs);
      claim = await this.claim();
    }
    setCurrentDetails('');
  }

  /**
   * One claim, told to the jobs it granted. Not cancellable: a cancel arriving meanwhile would drop the activity's
   * answer (its grants are committed, but the jobs granted would never be told) and turn the signals' cancellation
   * into "closed" in `tell`, releasing live jobs' slots. The cancel is raised at the job's next await instead.
   */
  private async claim() {
    return patched(SLOT_CLAIM_UNCANCELLED_PATCH)
      ? CancellationScope.nonCancellable(() => this.claimOnce())
      : this.claimOnce();
  }

  private async claimOnce() {
    this.signalled = false;
    const claim = await claimJobSlot({
      request: {
        jobId: this.jobId,
        orgId: this.scheduling.orgId,
        projectSlug: this.projectSlug ?? null,
        priority: this.scheduling.priority,
      },
      policy: this.policy,
    });
    await this.tell(claim.granted);
    return claim;
  }

  /** Gives the slot back (or leaves the queue) and tells the jobs granted in its place; runs even when cancelled. */
  async release(): Promise<void> {
    await CancellationScope.nonCancellable(async () => {
      await this.tell(await releaseJobSlots({ jobIds: [this.jobId], policy: this.policy }));
    });
  }

  /**
   * Signals each granted job. A job whose workflow has closed (terminated while it waited) cannot take its slot: it is
   * released at once and its grant passed on, until every granted job has been told.
   */
  private async tell(granted: string[]): Promise<void> {
    let pending = granted;
    while (pending.length > 0) {
      const sent = await Promise.allSettled(
        pending.map((id) => getExternalWorkflowHandle(id).signal(slotGrantedSignal)),
      );
      const closed = pending.filter((_, i) => sent[i]!.status === 'rejected');
      pending = closed.length > 0 ? await releaseJobSlots({ jobIds: closed, policy: this.policy }) : [];
    }
  }
}
