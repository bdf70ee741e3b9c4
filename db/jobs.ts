import type { Pool, PoolClient } from 'pg';
import { sharedRead } from './shared-reads';
import { idAllocationError, type IdsSelect } from './ids';
import { withTransaction } from './transaction';

export const TERMINAL_JOB_STATUSES = ['completed', 'failed', 'cancelled'] as const;
/** `paused`: a level waits for a person (an ask_user answer or an approval). */
export type JobStatus = 'queued' | 'running' | 'paused' | (typeof TERMINAL_JOB_STATUSES)[number];

export function isTerminalStatus(status: string): boolean {
  return (TERMINAL_JOB_STATUSES as readonly string[]).includes(status);
}

/** Per job: the strongest effort rung asked for, tokens and cost, summed over every call. */
export interface JobUsage {
  effort?: string;
  reasoningTokens: number;
  promptTokens?: number;
  completionTokens?: number;
  costUsd: number;
}

export interface JobRow {
  job_id: string;
  workflow_id: string;
  prompt_id: string;
  status: JobStatus;
  model_tier: string | null;
  created_by: string;
  org_id: string | null;
  task_queue: string;
  project_slug: string | null;
  summary: string | null;
  error: unknown;
  max_effort: string | null;
  reasoning_tokens: number;
  prompt_tokens: string;
  completion_tokens: string;
  cost_usd: string;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface NewSubmission {
  jobId: string;
  workflowId: string;
  /** True when the submission starts a new workflow (no `workflow_id` in the request). */
  newWorkflow: boolean;
  promptId: string;
  prompt: string;
  projectSlug?: string;
  /** The scenario a new workflow runs (its graph is seeded from it); `build` when absent. */
  scenario?: string;
  modelTier?: string;
  createdBy: string;
  orgId: string;
  taskQueue: string;
}

/** The submission's rows in one statement: the workflow (new, or its updated_at bumped), its prompt, the queued run. */
const SUBMISSION_ROWS = `
  WITH new_workflow AS (
    INSERT INTO workflows (workflow_id, project_slug, created_by, org_id, scenario)
    SELECT $1, $2, $3, $4, COALESCE($5, 'build') WHERE $6::boolean
  ), touched_workflow AS (
    UPDATE workflows SET updated_at = now() WHERE workflow_id = $1 AND NOT $6::boolean
  ), prompt AS (
    INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ($7, $1, $8, $3)
  )
  INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, model_tier, created_by, org_id, task_queue)
  VALUES ($9, $1, $7, 'queued', $10, $3, $4, $11)`;

/**
 * Writes the workflow (when new), prompt thread and queued job run while `enqueue` (which starts the Temporal
 * workflow) runs, and commits only once both have succeeded: either everything is stored and the job is queued, or
 * nothing is stored. The two overlap because neither needs the other's result, and the commit still waits for the
 * start (the queue-first order, docs/failure-modes.md). When the rows fail, `enqueue` is still awaited and then
 * `onRowsFailed` runs (the caller removes the workflow it may have started) before the rows' error is thrown.
 * `rows` writes the caller's own rows after the submission's, in the same transaction; `idleLimitMs` bounds how long
 * PostgreSQL lets the transaction sit idle waiting on `enqueue`.
 */
export async function recordSubmission(
  pool: Pool,
  sub: NewSubmission | SubmissionFromBegin,
  enqueue: (sub: NewSubmission) => Promise<void>,
  options: {
    idleLimitMs?: number;
    onRowsFailed?: () => Promise<void>;
    rows?: (client: PoolClient, sub: NewSubmission) => Promise<void>;
  } = {},
): Promise<NewSubmission> {
  const deferred: SubmissionFromBegin | undefined = 'ids' in sub ? sub : undefined;
  // BEGIN, the idle limit and the new ids in one round trip (constants, no parameters: one simple-protocol query).
  const begin = [
    'BEGIN',
    ...(options.idleLimitMs === undefined
      ? []
      : [`SET LOCAL idle_in_transaction_session_timeout = ${Math.floor(options.idleLimitMs)}`]),
    ...(deferred ? [deferred.ids.sql] : []),
  ].join('; ');
  let began = false;
  try {
    return await withTransaction(
      pool,
      async (client, results) => {
        began = true;
        const idsRow: object = results[results.length - 1]!.rows[0] as object;
        const submission = deferred ? deferred.build(deferred.ids.read(idsRow)) : (sub as NewSubmission);
        const write = async () => {
          await client.query(SUBMISSION_ROWS, [
            submission.workflowId,
            submission.projectSlug ?? null,
            submission.createdBy,
            submission.orgId,
            submission.scenario ?? null,
            submission.newWorkflow,
            submission.promptId,
            submission.prompt,
            submission.jobId,
            submission.modelTier ?? null,
            submission.taskQueue,
          ]);
          if (options.rows) await options.rows(client, submission);
        };
        const [stored, enqueued] = await Promise.allSettled([write(), enqueue(submission)]);
        if (stored.status === 'rejected') {
          if (enqueued.status === 'fulfilled') await options.onRowsFailed?.();
          throw stored.reason;
        }
        if (enqueued.status === 'rejected') throw enqueued.reason;
        return submission;
      },
      begin,
    );
  } catch (err) {
    // The round trip that takes the ids failed: as when the allocation was a query of its own (503
    // id_allocation_failed), nothing was stored or started.
    if (deferred && !began) throw idAllocationError([{ prefix: 'wf-' }, { prefix: 'pt-' }], err);
    throw err;
  }
}

/**
 * A submission that starts a new workflow with its first prompt, whose two ids are taken by `ids.sql` sent with the
 * transaction's BEGIN (one round trip fewer than allocating them first); `build` makes the submission from them.
 */
export interface SubmissionFromBegin {
  ids: IdsSelect;
  build(ids: [workflowId: string, promptId: string]): NewSubmission;
}

/** The workflow's newest job that has not finished (queued, running or paused), if any. */
export async function findActiveJob(
  pool: Pool,
  workflowId: string,
): Promise<{ job_id: string; status: JobStatus } | undefined> {
  const { rows } = await pool.query<{ job_id: string; status: JobStatus }>(
    `SELECT job_id, status FROM job_runs
      WHERE workflow_id = $1 AND status NOT IN ('completed', 'failed', 'cancelled')
      ORDER BY created_at DESC, job_id DESC
      LIMIT 1`,
    [workflowId],
  );
  return rows[0];
}

/** The workflow's most recently finished job (completed, failed or cancelled), if any. */
export async function findLatestFinishedJob(pool: Pool, workflowId: string): Promise<{ job_id: string } | undefined> {
  const { rows } = await pool.query<{ job_id: string }>(
    `SELECT job_id FROM job_runs
      WHERE workflow_id = $1 AND status IN ('completed', 'failed', 'cancelled')
      ORDER BY finished_at DESC NULLS LAST, created_at DESC, job_id DESC
      LIMIT 1`,
    [workflowId],
  );
  return rows[0];
}

/**
 * Stores a prompt appended to a workflow whose running job takes it, bumping the workflow's updated_at, and calls
 * `deliver` before committing: the row exists exactly when the job accepted the prompt.
 */
export async function recordAppendedPrompt(
  pool: Pool,
  prompt: { promptId: string; workflowId: string; jobId: string; prompt: string; createdBy: string },
  deliver: () => Promise<void>,
): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by, delivered_to)
       VALUES ($1, $2, $3, $4, $5)`,
      [prompt.promptId, prompt.workflowId, prompt.prompt, prompt.createdBy, prompt.jobId],
    );
    await deliver();
    // After the delivery, so the workflow's row is locked only for the commit: a job slow to take the prompt (up to
    // its 20 s deadline) does not hold up other writes to the workflow meanwhile (a rename, a graph edit).
    await client.query('UPDATE workflows SET updated_at = now() WHERE workflow_id = $1', [prompt.workflowId]);
  });
}

export interface PromptThreadRow {
  prompt_id: string;
  workflow_id: string;
  prompt: string;
  created_by: string;
  created_at: Date;
  /** The job that took the prompt: the one started for it, or the running one it was delivered to. */
  job_id: string | null;
  delivered: 'new_job' | 'running_job';
}

/** The workflow's prompt threads, oldest first. */
export async function listPromptThreads(pool: Pool, workflowId: string): Promise<PromptThreadRow[]> {
  const { rows } = await pool.query<PromptThreadRow>(
    `SELECT p.prompt_id, p.workflow_id, p.prompt, p.created_by, p.created_at,
            COALESCE(j.job_id, p.delivered_to) AS job_id,
            CASE WHEN p.delivered_to IS NULL THEN 'new_job' ELSE 'running_job' END AS delivered
       FROM prompt_threads p
       LEFT JOIN job_runs j ON j.prompt_id = p.prompt_id
      WHERE p.workflow_id = $1
      ORDER BY p.created_at, p.prompt_id`,
    [workflowId],
  );
  return rows;
}

export async function findJob(pool: Pool | PoolClient, jobId: string): Promise<JobRow | undefined> {
  const { rows } = await pool.query<JobRow>(
    `SELECT j.*, w.project_slug
       FROM job_runs j JOIN workflows w USING (workflow_id)
      WHERE j.job_id = $1`,
    [jobId],
  );
  return rows[0];
}

/**
 * `findJob`, shared with every concurrent caller for the same job (db/shared-reads.ts): the row is shared, so callers
 * must not mutate it. For the paths thousands of requests take at once, such as opening a job's stream.
 */
export function findJobShared(pool: Pool, jobId: string): Promise<JobRow | undefined> {
  return sharedRead(pool, `job:${jobId}`, () => findJob(pool, jobId));
}

/**
 * Names who cancelled a cancelled job (`error.cancelled_by`), whichever of the API and the worker recorded the cancel
 * first; the rest of the error is kept. Only a cancelled job is touched.
 */
export async function recordCanceller(pool: Pool, jobId: string, userId: string): Promise<void> {
  await pool.query(
    `UPDATE job_runs
        SET error = COALESCE(error, '{}'::jsonb) || jsonb_build_object('cancelled_by', $2::text)
      WHERE job_id = $1 AND status = 'cancelled' AND (error IS NULL OR jsonb_typeof(error) = 'object')`,
    [jobId, userId],
  );
}

/**
 * Moves a job to `status` unless it is already terminal (a terminal state never changes), and
 * bumps its workflow's `updated_at`. Returns false when the job does not exist.
 */
export async function setJobStatus(
  pool: Pool,
  jobId: string,
  status: JobStatus,
  details: { summary?: string; error?: unknown; usage?: JobUsage } = {},
): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ workflow_id: string }>(
      `UPDATE job_runs
          SET status = $2,
              summary = COALESCE($3, summary),
              error = COALESCE($4::jsonb, error),
              max_effort = COALESCE($5, max_effort),
              reasoning_tokens = COALESCE($6, reasoning_tokens),
              cost_usd = COALESCE($7, cost_usd),
              prompt_tokens = COALESCE($8, prompt_tokens),
              completion_tokens = COALESCE($9, completion_tokens),
              updated_at = now(),
              started_at = CASE WHEN $2 = 'running' THEN COALESCE(started_at, now()) ELSE started_at END,
              finished_at = CASE WHEN $2 IN ('completed', 'failed', 'cancelled') THEN now() ELSE finished_at END
        WHERE job_id = $1 AND status NOT IN ('completed', 'failed', 'cancelled')
        RETURNING workflow_id`,
      [
        jobId,
        status,
        details.summary ?? null,
        details.error === undefined ? null : JSON.stringify(details.error),
        details.usage?.effort ?? null,
        details.usage?.reasoningTokens ?? null,
        details.usage?.costUsd ?? null,
        details.usage?.promptTokens ?? null,
        details.usage?.completionTokens ?? null,
      ],
    );
    const changed = rows[0];
    if (!changed) {
      const existing = await client.query('SELECT 1 FROM job_runs WHERE job_id = $1', [jobId]);
      return existing.rowCount === 1;
    }
    await client.query('UPDATE workflows SET updated_at = now() WHERE workflow_id = $1', [changed.workflow_id]);
    return true;
  });
}
