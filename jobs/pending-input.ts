import type { FastifyBaseLogger } from 'fastify';
import { listApprovals } from '../db/approvals';
import type { JobRow } from '../db/jobs';
import { interruptsQuery } from '../workflows/human-input';
import type { JobsDeps } from './deps';
import { temporalCall } from '../temporal/temporal-call';

/** An open `ask_user` question: answered with `POST /v1/jobs/:id/resume` and its `call_id`. */
export interface PendingQuestion {
  call_id: string;
  /** The level that asked, e.g. `L2.architect`. */
  role: string;
  question: string;
  /** A budget decision (docs/budgets.md): the answers it takes; absent for a free-text question. */
  choices?: string[];
}

/** A pending approval: decided with `POST /v1/approvals/:id/decide`. */
export interface PendingApproval {
  approval_id: string;
  role: string;
  action: string;
  reason: string;
  requested_at: string;
}

export interface PendingInput {
  /** Null when the job's workflow did not say in time (no worker running it): unknown, not none. */
  questions: PendingQuestion[] | null;
  approvals: PendingApproval[];
}

/** More would not be read by a person anyway; a level asks one thing at a time. */
const MAX_LISTED = 50;

/**
 * What a paused job waits for, so a person (or `keel jobs`) knows what to answer without reading its event stream.
 * Questions live in the job's workflow (its `interrupts` query, which needs a worker); approvals in their table.
 * Undefined for a job that is not paused.
 */
export async function pendingInput(
  deps: Pick<JobsDeps, 'pool' | 'temporal' | 'temporalAnswerMs'>,
  job: JobRow,
  log: FastifyBaseLogger,
): Promise<PendingInput | undefined> {
  if (job.status !== 'paused') return undefined;
  const [questions, approvals] = await Promise.all([
    openQuestions(deps, job, log),
    listApprovals(deps.pool, { job_id: job.job_id, status: 'pending', orgId: null, limit: MAX_LISTED }),
  ]);
  return {
    questions,
    approvals: approvals.map((a) => ({
      approval_id: a.approval_id,
      role: a.role,
      action: a.action,
      reason: a.reason,
      requested_at: a.created_at.toISOString(),
    })),
  };
}

async function openQuestions(
  deps: Pick<JobsDeps, 'temporal' | 'temporalAnswerMs'>,
  job: JobRow,
  log: FastifyBaseLogger,
): Promise<PendingQuestion[] | null> {
  try {
    // Bounded like every Temporal call of a request: a job read never waits on an unreachable Temporal.
    const open = await temporalCall(deps, 'list the questions of a paused job', () =>
      deps.temporal.workflow.getHandle(job.job_id).query(interruptsQuery),
    );
    return open.slice(0, MAX_LISTED).map((q) => ({
      call_id: q.call_id,
      role: q.role,
      question: q.question,
      ...(q.choices ? { choices: q.choices } : {}),
    }));
  } catch (err) {
    log.warn({ err, job_id: job.job_id }, "the paused job's workflow did not list its questions");
    return null;
  }
}
