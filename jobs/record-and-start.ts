import type { FastifyBaseLogger } from 'fastify';
import type { PoolClient } from 'pg';
import { recordSubmission, type NewSubmission } from '../db/jobs';
import { AppError, inputDataException, UnavailableError } from '../http/errors';
import {
  KEEL_CREATED_BY,
  KEEL_MODEL_TIER,
  KEEL_PROJECT,
  KEEL_STATUS,
  KEEL_WORKFLOW_ID,
} from '../pure/search-attributes';
import type { JobsDeps } from './deps';

/** The Temporal workflow a submission starts (its id is the job id). */
export interface JobWorkflow {
  type: string;
  args: unknown[];
  memo?: Record<string, unknown>;
}

/**
 * Every job's start: the submission's rows (and the caller's own `rows`) and the Temporal start commit together or not
 * at all. Starting the workflow is the durable enqueue; it happens before the rows commit. A failure is a 503 naming
 * which of the two did not take the job.
 */
export async function recordAndStart(
  deps: JobsDeps,
  sub: NewSubmission,
  workflow: JobWorkflow,
  log: FastifyBaseLogger,
  rows?: (client: PoolClient) => Promise<void>,
): Promise<void> {
  await recordSubmission(deps.pool, sub, async (client) => {
    if (rows) await rows(client);
    try {
      await deps.temporal.workflow.start(workflow.type, {
        workflowId: sub.jobId,
        taskQueue: deps.taskQueue,
        args: workflow.args,
        memo: { prompt_preview: sub.prompt.slice(0, 200), ...workflow.memo },
        typedSearchAttributes: [
          { key: KEEL_WORKFLOW_ID, value: sub.workflowId },
          { key: KEEL_CREATED_BY, value: sub.createdBy },
          { key: KEEL_STATUS, value: 'queued' },
          ...(sub.projectSlug ? [{ key: KEEL_PROJECT, value: sub.projectSlug }] : []),
          ...(sub.modelTier ? [{ key: KEEL_MODEL_TIER, value: sub.modelTier }] : []),
        ],
      });
    } catch (err) {
      log.error({ err }, 'could not start the job workflow');
      throw new UnavailableError('queue_unavailable', 'the job queue (Temporal) did not accept the job; retry');
    }
  }).catch((err: unknown) => {
    // A value the database refuses (NUL in a prompt) will be refused again: the client's error (400), not a 503 "retry".
    if (err instanceof AppError || inputDataException(err) !== undefined) throw err;
    log.error({ err }, 'could not record the submission');
    throw new UnavailableError('database_unavailable', 'the submission could not be stored; retry');
  });
}
