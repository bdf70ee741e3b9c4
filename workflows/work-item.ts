import {
  ApplicationFailure,
  CancellationScope,
  condition,
  executeChild,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { ACTIVITY_RETRY } from './activity-retry';
import { answerSignal, interruptClearedSignal, interruptRaisedSignal, JOB_ROLE } from './definitions';
import { interruptsQuery, notPaused, PendingInput, resumeUpdate, type ResumeInput } from './human-input';
import { markRunningOnceRecorded } from './job-recorded';
import { emitSkill, type WorkItemInput } from './capability-definitions';
import { runCapabilityRoadmap } from './capability-roadmap';
import { createEmitter, type Emit } from './emit';
import { runJob } from './job';
import { REASKED_CALL_REOPENS_PATCH } from './patches';

const { markJobStatus, archiveRunGraph, capabilityStatusesOf, openCapabilityRoadmap, recordWorkItemState } =
  proxyActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    retry: ACTIVITY_RETRY,
  });

/** How often a work item waiting on another job's roadmap looks at the capability again. */
const WAIT_POLL = '2 seconds';
const WAIT_ROUNDS = 1800;
/**
 * How long a resume may wait for the build to relay a question it has already announced: the question's event can
 * reach a client before the interrupt has travelled level → build → work item.
 */
const RELAY_WAIT = '15 seconds';
export const CAPABILITY_UNAVAILABLE = 'CapabilityUnavailable';

/**
 * A work item's job. When its work type needs capabilities it is a product build: `product_build_started` names them
 * and which the org lacks; each missing one is acquired first (its roadmap runs as a child of this job, its events in
 * this job's stream; a roadmap another job already runs is waited for), and the build goes on once they are active.
 * Then the work type's scenario runs as the job (`runJob` as a child with the same ids, which ends the job with
 * `final` or `error`). A capability that cannot be acquired ends the job with `error` code `capability_unavailable`.
 *
 * Clients know one workflow for the job, this one (its id is the job id): the build relays its questions here, and
 * `POST /v1/jobs/:id/resume` (the `resume` Update) and the `interrupts` query are answered here, the answer going
 * straight to the level or step that asked.
 */
export async function runWorkItem(input: WorkItemInput): Promise<void> {
  const { job_id: jobId } = input.ids;
  const emit = createEmitter(input.ids, `${jobId}/work-item`);
  const state = { jobRunning: false };
  wireHandlers(jobId, state);
  try {
    if (input.capabilities.length > 0) {
      // A submission that never committed has no rows to report to: end without running.
      if (!(await markRunningOnceRecorded(jobId))) return;
      await acquireMissing(input, emit);
    }
    state.jobRunning = true;
    await executeChild(runJob, {
      workflowId: `${jobId}/build`,
      typedSearchAttributes: workflowInfo().typedSearchAttributes,
      args: [input.job],
    });
    await recordWorkItemState({ orgId: input.orgId, slug: input.slug, state: 'done' });
  } catch (err) {
    await failWorkItem(input, emit, state.jobRunning, err);
    throw err;
  }
}

/**
 * The work item's query and resume Update: its clients resume the work item's workflow (the job id), and it passes
 * each answer on to the level that asked, which relayed the question here through the job (workflows/job.ts).
 */
function wireHandlers(jobId: string, state: { jobRunning: boolean }): void {
  const pending = new PendingInput(jobId);
  /** The refusal of an answer the work item cannot pass on (the call is not an open question of its job). */
  const notWaitingOn = (callId: string) => pending.refusal(callId) ?? notPaused(jobId);
  setHandler(interruptsQuery, () => pending.questions());
  setHandler(
    interruptRaisedSignal,
    (interrupt) => void pending.raise(interrupt, () => patched(REASKED_CALL_REOPENS_PATCH)),
  );
  setHandler(interruptClearedSignal, ({ call_id }) => pending.clear(call_id));
  setHandler(
    resumeUpdate,
    async ({ call_id, answer }) => {
      // The question may be announced but not relayed yet; wait for it a little rather than refuse a fair answer.
      const relayed = await condition(() => pending.known(call_id), RELAY_WAIT);
      const interrupt = pending.get(call_id);
      if (!relayed || interrupt?.kind !== 'ask_user') throw notWaitingOn(call_id);
      // A budget decision takes only its answers (400 invalid_budget_decision), as the job's own validator says.
      const invalid = pending.refusal(call_id, answer);
      if (invalid) throw invalid;
      // Answered at most once: a client retrying the same resume now gets unknown_call_id.
      pending.clear(call_id);
      await getExternalWorkflowHandle(interrupt.workflow_id).signal(answerSignal, { call_id, answer });
      return { accepted: true as const };
    },
    {
      validator: ({ call_id }: ResumeInput) => {
        // Questions are asked only once the build runs (capability acquisition asks nobody).
        if (!state.jobRunning) throw notPaused(jobId);
        if (pending.wasAnswered(call_id)) throw notWaitingOn(call_id);
      },
    },
  );
}

/** Says which capabilities the work needs and which are missing, then acquires each missing one in turn. */
async function acquireMissing(input: WorkItemInput, emit: Emit): Promise<void> {
  const statuses = await capabilityStatusesOf({ orgId: input.orgId, names: input.capabilities });
  const missing = input.capabilities.filter((name) => statuses[name] !== 'active');
  await emitSkill(emit, JOB_ROLE, 'product_build_started', {
    work_item: input.slug,
    work_type: input.workType,
    capabilities: input.capabilities.map((name) => ({ name, status: statuses[name] ?? 'unknown' })),
    missing,
  });
  for (const capability of missing) await acquire(input, capability);
}

/** The work item failed or was cancelled: its state, and the job's terminal event unless its build already owns it. */
async function failWorkItem(input: WorkItemInput, emit: Emit, jobRunning: boolean, err: unknown): Promise<void> {
  const jobId = input.ids.job_id;
  const cancelled = isCancellation(err);
  await CancellationScope.nonCancellable(async () => {
    await recordWorkItemState({ orgId: input.orgId, slug: input.slug, state: 'failed' });
    // Once the scenario runs, runJob owns the job's terminal event and status.
    if (jobRunning) return;
    const unavailable = (err as { type?: string }).type === CAPABILITY_UNAVAILABLE;
    const code = cancelled ? 'cancelled' : unavailable ? 'capability_unavailable' : 'job_failed';
    const message = cancelled ? 'the job was cancelled' : (err as Error).message;
    await markJobStatus({ jobId, status: cancelled ? 'cancelled' : 'failed', error: { code, message } });
    await archiveRunGraph({ jobId, outcome: cancelled ? 'cancelled' : 'failed' });
    await emit(JOB_ROLE, 'error', { retryable: false, code, message });
  });
}

/** One missing capability: active already, acquired by a roadmap of this job's own, or by another job's. */
async function acquire(input: WorkItemInput, capability: string): Promise<void> {
  const jobId = input.ids.job_id;
  const opened = await openCapabilityRoadmap({
    orgId: input.orgId,
    capability,
    jobId,
    reason: `needed by work item ${input.slug}`,
    createdBy: input.createdBy,
    roadmapId: `rm-${uuid4()}`,
  });
  if (opened.state === 'active') return;
  if (opened.state === 'unknown') throw unavailable(`capability ${capability} is not in the registry`);
  if (opened.state === 'opened') {
    const result = await executeChild(runCapabilityRoadmap, {
      workflowId: `${jobId}/acquire-${capability}`,
      args: [
        {
          ids: input.ids,
          roadmapId: opened.roadmapId!,
          capability,
          orgId: input.orgId,
          reason: `needed by work item ${input.slug}`,
          standalone: false,
        },
      ],
    });
    if (result.status !== 'acquired') throw unavailable(`capability ${capability} is blocked: ${result.reason}`);
    return;
  }
  // Another job's roadmap acquires it: wait for its outcome.
  for (let round = 0; round < WAIT_ROUNDS; round += 1) {
    const status = (await capabilityStatusesOf({ orgId: input.orgId, names: [capability] }))[capability];
    if (status === 'active') return;
    if (status !== 'acquiring') {
      throw unavailable(`capability ${capability} was not acquired by roadmap ${opened.roadmapId} (${status})`);
    }
    await sleep(WAIT_POLL);
  }
  throw unavailable(`capability ${capability} is still being acquired by roadmap ${opened.roadmapId}`);
}

function unavailable(message: string) {
  return ApplicationFailure.create({ type: CAPABILITY_UNAVAILABLE, message, nonRetryable: true });
}
