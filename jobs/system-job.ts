/**
 * Starting a job whose workflow is not the agent hierarchy itself: a capability roadmap, a vertical's discovery, a
 * work item. Like `submitJob` it writes the workflow, prompt thread and queued job run and starts the Temporal
 * workflow (id = job id) before the rows commit; the caller's own rows (a roadmap, a vertical) are written in the
 * same transaction, so either all of it exists and runs, or none of it does.
 */
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PoolClient } from 'pg';
import { recordSubmission } from '../db/jobs';
import type { TokenOwner } from '../db/tokens';
import { AppError, UnavailableError } from '../http/errors';
import { KEEL_CREATED_BY, KEEL_PROJECT, KEEL_STATUS, KEEL_WORKFLOW_ID } from '../pure/search-attributes';
import type { JobIds } from '../workflows/definitions';
import type { JobsDeps } from './deps';
import { allocate } from './submit';

export interface SystemJob {
  /** What the job is about, stored as its prompt thread (already redacted). */
  prompt: string;
  projectSlug?: string;
  /** The registered workflow type, e.g. `runCapabilityRoadmap`. */
  workflowType: string;
  args: (ids: JobIds) => unknown[];
  /** Rows of the caller's own, written in the submission's transaction before the workflow starts. */
  rows?: (client: PoolClient, ids: JobIds) => Promise<void>;
  memo?: Record<string, unknown>;
}

export async function startSystemJob(
  deps: JobsDeps,
  principal: TokenOwner,
  job: SystemJob,
  log: FastifyBaseLogger,
): Promise<JobIds> {
  const [workflowId, promptId] = await allocate(() =>
    Promise.all([deps.ids.nextWorkflowId(), deps.ids.nextPromptId()]),
  );
  const ids: JobIds = { job_id: `job-${crypto.randomUUID()}`, workflow_id: workflowId, prompt_id: promptId };
  const createdBy = principal.user_id || 'user';
  await recordSubmission(
    deps.pool,
    {
      jobId: ids.job_id,
      workflowId,
      newWorkflow: true,
      promptId,
      prompt: job.prompt,
      projectSlug: job.projectSlug,
      createdBy,
      orgId: principal.org_id,
      taskQueue: deps.taskQueue,
    },
    async (client) => {
      if (job.rows) await job.rows(client, ids);
      try {
        await deps.temporal.workflow.start(job.workflowType, {
          workflowId: ids.job_id,
          taskQueue: deps.taskQueue,
          args: job.args(ids),
          memo: { prompt_preview: job.prompt.slice(0, 200), ...job.memo },
          typedSearchAttributes: [
            { key: KEEL_WORKFLOW_ID, value: workflowId },
            { key: KEEL_CREATED_BY, value: createdBy },
            { key: KEEL_STATUS, value: 'queued' },
            ...(job.projectSlug ? [{ key: KEEL_PROJECT, value: job.projectSlug }] : []),
          ],
        });
      } catch (err) {
        log.error({ err }, 'could not start the job workflow');
        throw new UnavailableError('queue_unavailable', 'the job queue (Temporal) did not accept the job; retry');
      }
    },
  ).catch((err: unknown) => {
    if (err instanceof AppError) throw err;
    log.error({ err }, 'could not record the submission');
    throw new UnavailableError('database_unavailable', 'the submission could not be stored; retry');
  });
  return ids;
}
