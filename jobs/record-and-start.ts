import type { FastifyBaseLogger } from 'fastify';
import type { PoolClient } from 'pg';
import { IdAllocationError } from '../db/ids';
import { recordSubmission, type NewSubmission, type SubmissionFromBegin } from '../db/jobs';
import { inputDataException } from '../db/data-exceptions';
import { Refusal, Unavailable } from '../refusals/refusal';
import {
  KEEL_CREATED_BY,
  KEEL_KIND,
  KEEL_MODEL_TIER,
  KEEL_PROJECT,
  KEEL_STATUS,
  KEEL_WORKFLOW_ID,
  runSummary,
} from '../pure/search-attributes';
import { jobsStarted } from '../metrics/series';
import { SUBMISSION_IDLE_LIMIT_MS } from '../pure/job-record';
import { temporalCall } from '../temporal/temporal-call';
import type { JobsDeps } from './deps';

/** The Temporal workflow a submission starts (its id is the job id). */
export interface JobWorkflow {
  type: string;
  args: unknown[];
  memo?: Record<string, unknown>;
}

/**
 * Every job's start: the submission's rows (and the caller's own `rows`, written after them) and the Temporal start
 * commit together or not at all. Starting the workflow is the durable enqueue; it runs while the rows are written and completes before they
 * commit. A failure is a 503 naming which of the two did not take the job. A process that dies between the start and
 * the commit leaves a workflow with no rows: it waits a bounded time for them and ends itself
 * (workflows/job-recorded.ts, docs/failure-modes.md). Rows the database refused are rolled back and the workflow
 * started beside them is terminated at once (else it too would wait and end itself).
 * A submission whose ids are taken with its BEGIN (`SubmissionFromBegin`) names its workflow by a function of the
 * submission; the submission stored is returned either way.
 */
export async function recordAndStart(
  deps: JobsDeps,
  submission: NewSubmission | SubmissionFromBegin,
  job: JobWorkflow | ((sub: NewSubmission) => JobWorkflow),
  log: FastifyBaseLogger,
  rows?: (client: PoolClient, sub: NewSubmission) => Promise<void>,
): Promise<NewSubmission> {
  let jobId = 'ids' in submission ? undefined : submission.jobId;
  const terminate = () =>
    deps.temporal.workflow
      .getHandle(jobId!)
      .terminate('its submission was not stored')
      .then(
        () => undefined,
        (err: unknown) => log.warn({ err }, 'could not terminate the workflow of a submission that was not stored'),
      );
  // PostgreSQL ends the transaction if it sits idle past the limit waiting on Temporal; the workflow waits longer than
  // that for its row (pure/job-record.ts), so a start whose rows never commit ends itself.
  const options = { idleLimitMs: SUBMISSION_IDLE_LIMIT_MS, onRowsFailed: terminate, rows };
  const stored = await recordSubmission(
    deps.pool,
    submission,
    async (sub) => {
      jobId = sub.jobId;
      const workflow = typeof job === 'function' ? job(sub) : job;
      try {
        await temporalCall(deps, 'the job was not started', () =>
          deps.temporal.workflow.start(workflow.type, {
            workflowId: sub.jobId,
            taskQueue: deps.taskQueue,
            args: workflow.args,
            memo: { prompt_preview: sub.prompt.slice(0, 200), ...workflow.memo },
            // What the Temporal UI shows on the job's row and page: the request's first line, then who and where.
            staticSummary: runSummary(sub.prompt),
            staticDetails: [
              `**Keel job** \`${sub.jobId}\` of workflow \`${sub.workflowId}\``,
              `Submitted by \`${sub.createdBy}\`${sub.projectSlug ? ` in project \`${sub.projectSlug}\`` : ''}`,
              `Model tier: ${sub.modelTier ?? 'default'}`,
            ].join('\n\n'),
            typedSearchAttributes: [
              { key: KEEL_KIND, value: 'job' },
              { key: KEEL_WORKFLOW_ID, value: sub.workflowId },
              { key: KEEL_CREATED_BY, value: sub.createdBy },
              { key: KEEL_STATUS, value: 'queued' },
              ...(sub.projectSlug ? [{ key: KEEL_PROJECT, value: sub.projectSlug }] : []),
              ...(sub.modelTier ? [{ key: KEEL_MODEL_TIER, value: sub.modelTier }] : []),
            ],
          }),
        );
      } catch (err) {
        log.error({ err }, 'could not start the job workflow');
        throw new Unavailable('queue_unavailable', 'the job queue (Temporal) did not accept the job; retry');
      }
    },
    options,
  ).catch((err: unknown) => {
    // A value the database refuses (NUL in a prompt) will be refused again: the client's error (400), not a 503 "retry".
    if (err instanceof Refusal || inputDataException(err) !== undefined) throw err;
    // The ids were taken with the BEGIN (SubmissionFromBegin): their failure answers as an allocation's always did.
    if (err instanceof IdAllocationError) throw new Unavailable('id_allocation_failed', err.message);
    log.error({ err }, 'could not record the submission');
    throw new Unavailable('database_unavailable', 'the submission could not be stored; retry');
  });
  jobsStarted.inc({ tier: stored.modelTier ?? 'default' });
  return stored;
}
