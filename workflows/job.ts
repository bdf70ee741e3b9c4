import {
  CancellationScope,
  executeChild,
  isCancellation,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { KEEL_STATUS } from '../temporal/search-attributes';
import {
  FIRST_CUT_LEVELS,
  jobProgressQuery,
  levelWorkflowId,
  type JobInput,
  type JobProgress,
  type JobResult,
  type LevelResult,
} from './definitions';
import { strongestRung } from '../routing/resolve/effort';
import { createEmitter } from './emit';
import { runLevel } from './level';

const { markJobStatus } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/** The team lead speaks for the job, so job-level events carry its role. */
const JOB_ROLE = 'L1.team_lead';

/**
 * A job: runs the hierarchy's levels as child workflows (first cut: L1 → L2 → L4 → L3, one attempt
 * each) and ends with exactly one terminal event, `final` or `error`. The workflow id is the job id.
 * Cancellation reaches the running child and its activities; the job then records `cancelled`.
 */
export async function runJob(input: JobInput): Promise<JobResult> {
  const { job_id: jobId } = input.ids;
  const emit = createEmitter(input.ids, jobId);
  const progress: JobProgress = { status: 'running', finishedLevels: [], createdFiles: [] };
  setHandler(jobProgressQuery, () => progress);
  // Children are findable by the job's workflow id, project and creator; status belongs to the job alone.
  const childSearchAttributes = workflowInfo().typedSearchAttributes.updateCopy([{ key: KEEL_STATUS, value: null }]);

  try {
    await markJobStatus({ jobId, status: 'running' });
    upsertSearchAttributes([{ key: KEEL_STATUS, value: 'running' }]);

    const results: LevelResult[] = [];
    for (const { role, requirements, effort } of FIRST_CUT_LEVELS) {
      progress.currentLevel = role;
      const result = await executeChild(runLevel, {
        workflowId: levelWorkflowId(jobId, role, 1),
        typedSearchAttributes: childSearchAttributes,
        memo: { role, job_id: jobId, attempt: 1 },
        args: [
          {
            ids: input.ids,
            role,
            attempt: 1,
            request: input.prompt,
            context: results.map((r) => ({ role: r.role, output: r.output })),
            modelTier: input.modelTier,
            requirements,
            effort,
          },
        ],
      });
      results.push(result);
      progress.finishedLevels.push(role);
      progress.createdFiles.push(...result.createdFiles);
    }
    progress.currentLevel = undefined;

    const summary = summarize(results, progress.createdFiles);
    const executor = results.find((r) => r.role.startsWith('L4.'));
    const usage = {
      effort: strongestRung(results.map((r) => r.effort)),
      reasoningTokens: results.reduce((sum, r) => sum + r.reasoningTokens, 0),
      costUsd: results.reduce((sum, r) => sum + r.costUsd, 0),
    };
    // Status before the terminal event: a client that reads the job after `final` sees it finished.
    await markJobStatus({ jobId, status: 'completed', summary, usage });
    await emit(JOB_ROLE, 'final', {
      agent_message: executor?.output ?? summary,
      summary,
      created_files: [...progress.createdFiles],
      effort: usage.effort ?? null,
      reasoning_tokens: usage.reasoningTokens,
      cost_usd: usage.costUsd,
    });
    upsertSearchAttributes([{ key: KEEL_STATUS, value: 'completed' }]);
    progress.status = 'completed';
    return { status: 'completed', summary, createdFiles: progress.createdFiles };
  } catch (err) {
    const cancelled = isCancellation(err);
    progress.status = cancelled ? 'cancelled' : 'failed';
    // The terminal event and status must be written even though this workflow is being cancelled.
    await CancellationScope.nonCancellable(async () => {
      await markJobStatus({
        jobId,
        status: cancelled ? 'cancelled' : 'failed',
        error: { code: cancelled ? 'cancelled' : 'job_failed', message: describe(err) },
      });
      await emit(JOB_ROLE, 'error', {
        retryable: !cancelled && !isNonRetryable(err),
        code: cancelled ? 'cancelled' : 'job_failed',
        message: cancelled ? 'the job was cancelled' : describe(err),
      });
    });
    upsertSearchAttributes([{ key: KEEL_STATUS, value: progress.status }]);
    throw err;
  }
}

function summarize(results: LevelResult[], files: string[]): string {
  const verdict = results.find((r) => r.verdict)?.verdict;
  const wrote = files.length > 0 ? `wrote ${files.join(', ')}` : 'wrote no files';
  return `${results.length} levels ran; ${wrote}${verdict ? `; verifier: ${verdict}` : ''}.`;
}

/** A failure whose cause was marked non-retryable (e.g. a provider refusing the request) will fail again. */
function isNonRetryable(err: unknown): boolean {
  for (
    let current = err as { nonRetryable?: boolean; cause?: unknown } | undefined;
    current;
    current = current.cause as typeof current
  ) {
    if (current.nonRetryable) return true;
  }
  return false;
}

/** The innermost message of a failure chain (child → activity → cause) is the one a user can act on. */
function describe(err: unknown): string {
  let current = err as { message?: string; cause?: unknown } | undefined;
  let message = current?.message ?? String(err);
  while (current?.cause) {
    current = current.cause;
    if (current.message) message = current.message;
  }
  return message;
}
