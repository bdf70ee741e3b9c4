import {
  ApplicationFailure,
  CancellationScope,
  executeChild,
  isCancellation,
  proxyActivities,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { ACTIVITY_RETRY } from './activity-retry';
import { markRunningOnceRecorded } from './job-recorded';
import {
  emitSkill,
  MAX_UNIT_RETRIES,
  unitWorkflowId,
  type RoadmapInput,
  type RoadmapResult,
  type UnitInput,
  type UnitResult,
} from './capability-definitions';
import { JOB_ROLE, type LevelResult } from './definitions';
import { createEmitter } from './emit';
import { runLevel } from './level';
import { preview } from './prompts';
import type { ScenarioLevel } from '../scenarios/types';

const {
  loadRoadmapPlan,
  recordUnitAttempt,
  checkUnitArtifact,
  checkCapabilitySecret,
  finishCapabilityRoadmap,
  markJobStatus,
  archiveRunGraph,
  loadScenario,
} = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: ACTIVITY_RETRY,
});

/** Units speak as the acquisition level (the team lead, JOB_ROLE, speaks for the job). */
const UNIT_ROLE = 'L2.acquisition';
/** ApplicationFailure type a blocked roadmap ends its job with. */
export const CAPABILITY_BLOCKED = 'CapabilityAcquisitionBlocked';

/**
 * A capability roadmap: its units run in order, each attempt a child workflow; a unit that fails its first attempt
 * and MAX_UNIT_RETRIES retries blocks the roadmap (`capability_acquisition_blocked`, with the reason and what a
 * person must do). When every unit is verified the capability becomes active (`capability_acquired`). Run alone it
 * is a job (status, run graph, `final` or `error`); run by a work item's job it only reports back.
 */
export async function runCapabilityRoadmap(input: RoadmapInput): Promise<RoadmapResult> {
  const { job_id: jobId } = input.ids;
  const emit = createEmitter(
    input.ids,
    workflowInfo().workflowId === jobId ? `${jobId}/roadmap` : workflowInfo().workflowId,
  );
  const base = { roadmap_id: input.roadmapId, capability: input.capability };
  try {
    // A submission that never committed has no rows to report to: end without running.
    if (input.standalone && !(await markRunningOnceRecorded(jobId))) {
      return { status: 'blocked', reason: 'the submission was never recorded' };
    }
    const plan = await loadRoadmapPlan({ roadmapId: input.roadmapId });
    const acquired: Array<{ unit: string; attempts: number }> = [];
    for (const unit of plan.units) {
      const { result, attempt } = await acquireUnit(input, unit, plan.requirements);
      if (!result || !result.verified) {
        const why = result && !result.verified ? result.reason : 'no attempt ran';
        const reason = `unit ${unit.key} (${unit.title}) failed ${attempt} times: ${why}`;
        const action = actionWhenBlocked(input, unit);
        await finishCapabilityRoadmap({ roadmapId: input.roadmapId, outcome: 'blocked', reason, actionNeeded: action });
        await emitSkill(emit, JOB_ROLE, 'capability_acquisition_blocked', { ...base, unit: unit.key, reason, action });
        if (input.standalone) {
          throw ApplicationFailure.create({ type: CAPABILITY_BLOCKED, message: reason, nonRetryable: true });
        }
        return { status: 'blocked', reason };
      }
      acquired.push({ unit: unit.key, attempts: attempt });
    }
    await finishCapabilityRoadmap({ roadmapId: input.roadmapId, outcome: 'acquired' });
    await emitSkill(emit, JOB_ROLE, 'capability_acquired', { ...base, units: acquired });
    if (input.standalone) {
      const summary = `Acquired ${input.capability}: ${acquired.length} units verified.`;
      await markJobStatus({ jobId, status: 'completed', summary, usage: { reasoningTokens: 0, costUsd: 0 } });
      await archiveRunGraph({ jobId, outcome: 'completed' });
      await emit(JOB_ROLE, 'final', {
        agent_message: summary,
        summary,
        created_files: plan.units.filter((u) => u.kind !== 'secret').map((u) => u.artifact),
        roadmap_id: input.roadmapId,
      });
    }
    return { status: 'acquired' };
  } catch (err) {
    const cancelled = isCancellation(err);
    const blocked = (err as { type?: string }).type === CAPABILITY_BLOCKED;
    await CancellationScope.nonCancellable(async () => {
      if (!blocked) {
        await finishCapabilityRoadmap({ roadmapId: input.roadmapId, outcome: cancelled ? 'cancelled' : 'failed' });
      }
      if (!input.standalone) return;
      const code = cancelled ? 'cancelled' : blocked ? 'capability_acquisition_blocked' : 'job_failed';
      const message = cancelled ? 'the roadmap job was cancelled' : innermost(err);
      await markJobStatus({ jobId, status: cancelled ? 'cancelled' : 'failed', error: { code, message } });
      await archiveRunGraph({ jobId, outcome: cancelled ? 'cancelled' : 'failed' });
      await emit(JOB_ROLE, 'error', { retryable: false, code, message });
    });
    throw err;
  }
}

/** A unit's attempts, each a child workflow, until one is verified or the retries run out. */
async function acquireUnit(
  input: RoadmapInput,
  unit: UnitInput['unit'],
  requirements: UnitInput['requirements'],
): Promise<{ result: UnitResult | undefined; attempt: number }> {
  let result: UnitResult | undefined;
  let attempt = 0;
  while (attempt <= MAX_UNIT_RETRIES) {
    attempt += 1;
    const args: UnitInput = {
      ids: input.ids,
      roadmapId: input.roadmapId,
      capability: input.capability,
      unit,
      attempt,
      last: attempt === MAX_UNIT_RETRIES + 1,
      reason: input.reason,
      requirements,
    };
    result = await executeChild(runAcquisitionUnit, {
      workflowId: unitWorkflowId(input.ids.job_id, input.roadmapId, unit.position, attempt),
      memo: { roadmap_id: input.roadmapId, unit: unit.key, attempt },
      args: [args],
    });
    if (result.verified) break;
  }
  return { result, attempt };
}

/** What a person must do to unblock a roadmap stopped at `unit`. */
function actionWhenBlocked(input: RoadmapInput, unit: UnitInput['unit']): string {
  return unit.kind === 'secret'
    ? `store ${unit.key.replace(/^secret-/, '')} in the secrets store the workers read, then plan ${input.capability} again`
    : `read the unit's last verifier deltas in job ${input.ids.job_id}, adjust the capability's requirements or the reason, then plan ${input.capability} again`;
}

/**
 * One attempt at one unit. A `secret` unit checks that the secret is set (a person provides it). Every other unit is
 * work for the agent levels: the executor writes the unit's artifact, the verifier judges it (its `Attempt: <k>` is
 * this attempt), and the artifact must be a file the job wrote. Verified only when both hold.
 */
export async function runAcquisitionUnit(input: UnitInput): Promise<UnitResult> {
  const unitId = workflowInfo().workflowId;
  const emit = createEmitter(input.ids, unitId);
  const { unit, attempt } = input;
  const base = { roadmap_id: input.roadmapId, capability: input.capability, unit: unit.key, attempt };
  await emitSkill(emit, UNIT_ROLE, 'acquisition_unit_started', { ...base, kind: unit.kind, unit_id: unitId });
  await recordUnitAttempt({ roadmapId: input.roadmapId, position: unit.position, status: 'running', attempt });

  const fail = async (reason: string): Promise<UnitResult> => {
    const status = input.last ? 'blocked' : 'failed';
    await recordUnitAttempt({ roadmapId: input.roadmapId, position: unit.position, status, attempt, error: reason });
    await emitSkill(emit, UNIT_ROLE, 'acquisition_unit_failed', { ...base, reason, final: input.last });
    return { verified: false, reason };
  };
  const pass = async (evidence: string[]): Promise<UnitResult> => {
    await recordUnitAttempt({
      roadmapId: input.roadmapId,
      position: unit.position,
      status: 'verified',
      attempt,
      evidence,
    });
    await emitSkill(emit, UNIT_ROLE, 'acquisition_unit_verified', { ...base, evidence });
    return { verified: true, evidence };
  };

  if (unit.kind === 'secret') {
    const name = unit.key.replace(/^secret-/, '');
    return (await checkCapabilitySecret({ name }))
      ? pass([`secret ${name} is in the secrets store (value not shown)`])
      : fail(`secret ${name} is not in the secrets store`);
  }

  const scenario = await loadScenario({ name: 'build' });
  const executor = scenario.levels.find((l) => l.role.startsWith('L4.'));
  const verifier = scenario.levels.find((l) => l.role.startsWith('L3.'));
  if (!executor || !verifier) return fail('the build scenario has no executor and verifier to run the unit');
  const request = `Write ${unit.artifact}: ${unit.title} for the ${input.capability} capability.${input.reason ? ` Reason: ${input.reason}` : ''}`;
  const task = {
    role: 'L2.acquisition',
    output: [
      `Task: write ${unit.artifact} describing how the team will ${unit.title} (capability ${input.capability}; ${input.requirements}).`,
      `Acceptance: ${unit.artifact} exists and is not empty`,
      `Acceptance: ${unit.artifact} names the ${input.capability} capability`,
    ].join('\n'),
  };
  let verified: LevelResult;
  try {
    verified = await executeAndVerifyUnit(input, unitId, { executor, verifier }, request, task);
  } catch (err) {
    if (isCancellation(err)) throw err;
    return fail(`a level failed: ${preview(innermost(err))}`);
  }
  if (verified.verdict !== 'pass') {
    return fail(`verifier said ${verified.verdict ?? 'unknown'}: ${verified.deltas.join('; ') || 'no deltas'}`);
  }
  const artifact = await checkUnitArtifact({ jobId: input.ids.job_id, path: unit.artifact });
  if (!artifact.present) return fail(`${unit.artifact} was not written`);
  return pass([artifact.evidence!, `verifier: pass on attempt ${attempt}`]);
}

/** The unit's executor writes its artifact, then the verifier judges it: the build scenario's two levels, as children. */
async function executeAndVerifyUnit(
  input: UnitInput,
  unitId: string,
  levels: { executor: ScenarioLevel; verifier: ScenarioLevel },
  request: string,
  task: { role: string; output: string },
): Promise<LevelResult> {
  const { executor, verifier } = levels;
  const { attempt } = input;
  const executed = await executeChild(runLevel, {
    workflowId: `${unitId}/${executor.role}`,
    args: [
      {
        ids: input.ids,
        role: executor.role,
        attempt,
        level: executor,
        request,
        context: [task],
        modelTier: input.modelTier,
      },
    ],
  });
  return executeChild(runLevel, {
    workflowId: `${unitId}/${verifier.role}`,
    args: [
      {
        ids: input.ids,
        role: verifier.role,
        attempt,
        level: verifier,
        request,
        context: [task, { role: executed.role, output: executed.output }],
        verifyAttempt: attempt,
        modelTier: input.modelTier,
      },
    ],
  });
}

function innermost(err: unknown): string {
  let current = err as { message?: string; cause?: unknown } | undefined;
  let message = current?.message ?? String(err);
  while (current?.cause) {
    current = current.cause;
    if (current?.message) message = current.message;
  }
  return message;
}
