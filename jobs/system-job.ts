/**
 * Starting a job whose workflow is not the agent hierarchy itself: a capability roadmap, a vertical's discovery, a
 * work item. Like `submitJob` it writes the workflow, prompt thread and queued job run and starts the Temporal
 * workflow (id = job id) before the rows commit; the caller's own rows (a roadmap, a vertical) are written in the
 * same transaction, so either all of it exists and runs, or none of it does.
 */
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PoolClient } from 'pg';
import type { Admitted } from './admit';
import type { JobIds } from '../workflows/definitions';
import type { JobsDeps } from './deps';
import { recordAndStart } from './record-and-start';
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
  principal: Admitted,
  job: SystemJob,
  log: FastifyBaseLogger,
): Promise<JobIds> {
  const [workflowId, promptId] = await allocate(() =>
    Promise.all([deps.ids.nextWorkflowId(), deps.ids.nextPromptId()]),
  );
  const ids: JobIds = { job_id: `job-${crypto.randomUUID()}`, workflow_id: workflowId, prompt_id: promptId };
  const createdBy = principal.user_id || 'user';
  const { rows } = job;
  await recordAndStart(
    deps,
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
    { type: job.workflowType, args: job.args(ids), memo: job.memo },
    log,
    rows && ((client) => rows(client, ids)),
  );
  return ids;
}
