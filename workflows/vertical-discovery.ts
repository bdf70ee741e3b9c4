import {
  CancellationScope,
  condition,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { ACTIVITY_RETRY } from './activity-retry';
import { markRunningOnceRecorded } from './job-recorded';
import { emitSkill, type VerticalInput } from './capability-definitions';
import { createEmitter } from './emit';
import { JOB_ROLE } from './definitions';
import { answerRefusal, interruptsQuery, resumeUpdate, type ResumeInput } from './human-input';
import { PAUSED_BEFORE_ASK_PATCH } from './patches';

const { markJobStatus, archiveRunGraph, discoverVertical, answerVerticalPlan, failVerticalDiscovery } =
  proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    retry: ACTIVITY_RETRY,
  });

type VerticalPlan = Awaited<ReturnType<Activities['discoverVertical']>>;

/**
 * A vertical's discovery job: reads the knowledge hub about the vertical, proposes the capabilities, templates and
 * designs it needs, and asks a person to confirm the plan (`ask_user`; the job is `paused` until
 * `POST /v1/jobs/:id/resume` answers it). With the answer planning resumes (`vertical_planning_resumed`): a confirmed
 * plan puts its capabilities in the org's registry, ready to be planned; a rejected one is recorded as such.
 */
export async function runVerticalDiscovery(input: VerticalInput): Promise<{ confirmed: boolean }> {
  const { job_id: jobId } = input.ids;
  const emit = createEmitter(input.ids, `${jobId}/discovery`);
  const callId = `confirm-${input.verticalId}`;
  let waiting = false;
  let answer: string | undefined;

  setHandler(interruptsQuery, () =>
    waiting && answer === undefined ? [{ call_id: callId, question: 'confirm the vertical plan', role: JOB_ROLE }] : [],
  );
  setHandler(
    resumeUpdate,
    ({ answer: text }) => {
      answer = text;
      return Promise.resolve({ accepted: true as const });
    },
    {
      validator: ({ call_id }: ResumeInput) => {
        const refused = answerRefusal(jobId, call_id, waiting && answer === undefined ? [callId] : []);
        if (refused) throw refused;
      },
    },
  );

  // A submission that never committed has no rows to report to: end without running.
  if (!(await markRunningOnceRecorded(jobId))) return { confirmed: false };
  try {
    await emitSkill(emit, JOB_ROLE, 'vertical_discovery_started', { vertical_id: input.verticalId, name: input.name });
    const plan = await discoverVertical({
      verticalId: input.verticalId,
      name: input.name,
      description: input.description,
    });
    const question = confirmationQuestion(input.name, plan);
    // Open to an answer, and `paused`, before the question is out: a person may answer as soon as they see it
    // (docs/human-input.md). patched: discoveries begun before this order recorded `paused` after it, and replay so.
    waiting = true;
    const pausedFirst = patched(PAUSED_BEFORE_ASK_PATCH);
    if (pausedFirst) await markJobStatus({ jobId, status: 'paused' });
    await emit(JOB_ROLE, 'ask_user', { call_id: callId, question, level_id: `${jobId}/discovery` });
    if (!pausedFirst) await markJobStatus({ jobId, status: 'paused' });
    await condition(() => answer !== undefined);
    await markJobStatus({ jobId, status: 'running' });
    const reading = await answerVerticalPlan({ verticalId: input.verticalId, orgId: input.orgId, answer: answer! });
    await emitSkill(emit, JOB_ROLE, 'vertical_planning_resumed', {
      vertical_id: input.verticalId,
      call_id: callId,
      confirmed: reading.confirmed,
      ...(reading.note ? { note: reading.note } : {}),
    });
    const summary = reading.confirmed
      ? `Planned the ${input.name} vertical: ${plan.capabilities.map((c) => c.name).join(', ')} are in the registry.`
      : `The ${input.name} vertical plan was rejected.`;
    await markJobStatus({ jobId, status: 'completed', summary, usage: { reasoningTokens: 0, costUsd: 0 } });
    await archiveRunGraph({ jobId, outcome: 'completed' });
    await emit(JOB_ROLE, 'final', {
      agent_message: summary,
      summary,
      created_files: [],
      vertical_id: input.verticalId,
    });
    return { confirmed: reading.confirmed };
  } catch (err) {
    const cancelled = isCancellation(err);
    await CancellationScope.nonCancellable(async () => {
      await failVerticalDiscovery({ verticalId: input.verticalId });
      const code = cancelled ? 'cancelled' : 'job_failed';
      const message = cancelled ? 'the discovery job was cancelled' : (err as Error).message;
      await markJobStatus({ jobId, status: cancelled ? 'cancelled' : 'failed', error: { code, message } });
      await archiveRunGraph({ jobId, outcome: cancelled ? 'cancelled' : 'failed' });
      await emit(JOB_ROLE, 'error', { retryable: false, code, message });
    });
    throw err;
  }
}

/** The question that asks a person to confirm the discovered plan. */
function confirmationQuestion(name: string, plan: VerticalPlan): string {
  return [
    `Plan for the ${name} vertical:`,
    `capabilities ${plan.capabilities.map((c) => c.name).join(', ')};`,
    `templates ${plan.templates.join(', ') || 'none'};`,
    `designs ${plan.designs.join(', ')};`,
    `sources ${plan.sources.map((s) => s.path).join(', ') || 'none in the knowledge hub'}.`,
    'Answer yes to confirm, no to reject, or confirm with a note.',
  ].join(' ');
}
