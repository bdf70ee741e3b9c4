import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { LEVEL_ACTIVITY_RETRY } from './activity-retry';
import { levelWorkflowId, type CarriedLevel, type JobInput, type LevelResult } from './definitions';
import type { Emit } from './emit';
import { preview } from './prompts';

/*
 * A fork's part of the job workflow (docs/fork-and-compare.md): the workspace restored from the fork point before the
 * first level, and the source's level runs up to the fork point carried over, in order, instead of run. Everything
 * here runs only for a job whose input has `fork`, so the commands of every other job are unchanged.
 */

// Restoring reads every blob of the fork point's manifest and writes the files: like a snapshot, it heartbeats per file
// and retries like a level's bookkeeping.
const { restoreForkWorkspace, recordCarriedSnapshot } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: LEVEL_ACTIVITY_RETRY,
});

/**
 * The source's level runs a fork takes, in the order they ran. The fork's own control flow is the source's (the same
 * scenario, the same results up to the fork point), so each level run it starts is the next one carried; a level run
 * that is not (a prompt patch that changes which levels run) ends the carry-over: from then on every level runs.
 */
export class CarryOver {
  private next = 0;

  constructor(private readonly levels: readonly CarriedLevel[]) {}

  take(role: string, attempt: number): CarriedLevel | undefined {
    const level = this.levels[this.next];
    if (!level) return undefined;
    if (level.role !== role || level.attempt !== attempt) {
      this.next = this.levels.length;
      return undefined;
    }
    this.next += 1;
    return level;
  }
}

/** A fork's start: the fork point's workspace restored, then `job_forked` naming the source and what is carried. */
export async function startFork(jobId: string, input: JobInput, emit: Emit): Promise<void> {
  const fork = input.fork!;
  if (fork.manifestSha256) await restoreForkWorkspace({ jobId, manifestSha256: fork.manifestSha256 });
  await emit('L1.team_lead', 'job_forked', {
    source_job_id: fork.sourceJobId,
    from_level_run_id: fork.fromLevelRunId,
    ...(fork.sequence !== undefined ? { from_sequence: fork.sequence } : {}),
    manifest_sha256: fork.manifestSha256,
    carried_level_ids: fork.carryOver.map((l) => l.sourceLevelRunId),
    model_tier: input.modelTier ?? null,
    prompt_patched: fork.promptPatched ?? false,
  });
}

/**
 * A carried level run: its `level_started` and `level_finished` marked `carried_over` (with the source's level run),
 * its snapshot recorded under the fork's level id (the source's manifest, no new blob), and the source's result as
 * its own. No child workflow, no model call.
 */
export async function carryLevel(jobId: string, emit: Emit, carried: CarriedLevel): Promise<LevelResult> {
  const { role, attempt, result, sourceLevelRunId } = carried;
  const levelId = levelWorkflowId(jobId, role, attempt);
  const mark = { carried_over: true as const, source_level_id: sourceLevelRunId };
  await emit(role, 'level_started', { level_id: levelId, role, attempt, ...mark });
  if (result.snapshot) {
    await recordCarriedSnapshot({ jobId, levelRunId: levelId, manifestSha256: result.snapshot.manifestSha256 });
  }
  await emit(role, 'level_finished', {
    level_id: levelId,
    ok: true,
    attempt,
    duration_ms: 0,
    cost_usd: result.costUsd,
    output_preview: preview(result.output),
    ...(result.provider ? { provider: result.provider } : {}),
    ...(result.model ? { model: result.model } : {}),
    ...(result.verdict ? { verdict: result.verdict } : {}),
    ...(result.effort ? { effort: result.effort } : {}),
    reasoning_tokens: result.reasoningTokens,
    ...(result.promptTokens !== undefined ? { prompt_tokens: result.promptTokens } : {}),
    ...(result.completionTokens !== undefined ? { completion_tokens: result.completionTokens } : {}),
    ...mark,
  });
  return result;
}
