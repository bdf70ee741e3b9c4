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
 * type JOB_NOT_PAUSED or UNKNOWN_CALL_ID (definitions.ts).
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

/** A prompt appended to a workflow while its job runs (`POST /v1/workflows/:id/prompts`). */
export interface AppendedPrompt {
  prompt_id: string;
  /** Already redacted by the API. */
  prompt: string;
}

/**
 * Update sent to the running JOB workflow: the job folds the prompt into the context of every level it runs from then
 * on, and runs its scenario once more if no level saw it. An update rather than a fire-and-forget signal because a
 * job that is already closing cannot act on it: the validator refuses with JOB_CLOSING, the caller then starts a new
 * job in the workflow, and no prompt is accepted and silently dropped. The API sends it with the prompt id as the
 * update id, so a retried delivery is taken once.
 */
export const appendPromptUpdate = defineUpdate<{ accepted: true }, [AppendedPrompt]>('appendPrompt');
