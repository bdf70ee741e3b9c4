import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

/**
 * Temporal messages that carry a human's answer into a running job. Definitions only: the API sends them and the
 * workflows handle them, so both sides import the names from here and cannot drift apart.
 */

/** A human's answer to one `ask_user` question, addressed by the question's `call_id`. */
export interface ResumeInput {
  call_id: string;
  /** Already redacted by the API: it lands in the model's context. */
  answer: string;
}

/**
 * Update sent to the JOB workflow (id = job id) by `POST /v1/jobs/:id/resume`. An update rather than a signal so the
 * caller learns at once whether the answer was taken: the job's validator rejects it with an ApplicationFailure of
 * type JOB_NOT_PAUSED or UNKNOWN_CALL_ID.
 */
export const resumeUpdate = defineUpdate<{ accepted: true }, [ResumeInput]>('resume');

/** The decision on one approval, as recorded in the `approvals` row before it is sent. */
export interface ApprovalDecision {
  approval_id: string;
  decision: 'approve' | 'reject';
  comment?: string;
  /** The user id of the token that decided. */
  decided_by: string;
}

/**
 * Signal sent by `POST /v1/approvals/:id/decide` to the workflow recorded on the approval row (`waiting_workflow_id`,
 * usually a level's child workflow). The row is the record of the decision; the signal only wakes the waiter.
 */
export const approvalDecisionSignal = defineSignal<[ApprovalDecision]>('approvalDecision');

/** One open `ask_user` question of a paused job. */
export interface PendingInterrupt {
  call_id: string;
  question: string;
  /** The level that asked, e.g. `L2.architect`. */
  role: string;
}

/** Query: the job's open questions, empty when it is not paused. */
export const interruptsQuery = defineQuery<PendingInterrupt[]>('interrupts');

/** ApplicationFailure types the resume validator throws; the API maps them to 409 codes. */
export const JOB_NOT_PAUSED = 'JobNotPaused';
export const UNKNOWN_CALL_ID = 'UnknownCallId';
