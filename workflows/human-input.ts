import { ApplicationFailure, defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { FollowUpPolicy } from '../pure/follow-up-policy';
import { INVALID_BUDGET_DECISION, JOB_NOT_PAUSED, UNKNOWN_CALL_ID, type Interrupt } from './definitions';
import { budgetChoices, parseBudgetDecision } from '../pure/budget-decision';

/**
 * Temporal messages that carry a human's answer into a running job, and the bookkeeping of the waits they answer. The
 * API sends the messages and the workflows handle them, so both sides import the names from here and cannot drift
 * apart; `PendingInput` and `answerRefusal` are what the workflows that take `resume` keep and refuse with.
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
  /** A budget decision: the answers it takes (any other is refused). */
  choices?: string[];
}

/** Query: the job's open questions, empty when it is not paused. */
export const interruptsQuery = defineQuery<PendingInterrupt[]>('interrupts');

/** A prompt appended to a workflow while its job runs (`POST /v1/workflows/:id/prompts`). */
export interface AppendedPrompt {
  prompt_id: string;
  /** Already redacted by the API. */
  prompt: string;
  /** The follow-up policy that delivered it (absent from prompts delivered before policies): recorded as an event. */
  policy?: FollowUpPolicy;
}

/**
 * Update sent to the running JOB workflow: the job folds the prompt into the context of every level it runs from then
 * on, and runs its scenario once more if no level saw it. An update rather than a fire-and-forget signal because a
 * job that is already closing cannot act on it: the validator refuses with JOB_CLOSING, the caller then starts a new
 * job in the workflow, and no prompt is accepted and silently dropped. The API sends it with the prompt id as the
 * update id, so a retried delivery is taken once.
 */
export const appendPromptUpdate = defineUpdate<{ accepted: true }, [AppendedPrompt]>('appendPrompt');

/** The refusal of any answer by a workflow that waits on no question (409 job_not_paused). */
export function notPaused(jobId: string): ApplicationFailure {
  return ApplicationFailure.create({ type: JOB_NOT_PAUSED, message: `job ${jobId} is not waiting for an answer` });
}

/**
 * Why an answer to `callId` is refused by a workflow that waits on the questions `waitingOn`: JOB_NOT_PAUSED when it
 * waits on none (409 job_not_paused), UNKNOWN_CALL_ID when on others (409 unknown_call_id); undefined when it waits
 * on `callId`.
 */
export function answerRefusal(
  jobId: string,
  callId: string,
  waitingOn: readonly string[],
): ApplicationFailure | undefined {
  if (waitingOn.length === 0) return notPaused(jobId);
  if (waitingOn.includes(callId)) return undefined;
  return ApplicationFailure.create({
    type: UNKNOWN_CALL_ID,
    message: `job ${jobId} is not waiting on call ${callId} (waiting on ${waitingOn.join(', ')})`,
  });
}

/**
 * The waits for a person a workflow knows of (questions, approvals, human tasks), raised and cleared by its levels'
 * signals, and the calls already answered: a late duplicate raise (a signal or an activity retried) never re-opens
 * one. Workflow state only, no commands: the job and the work item keep one each and wire their handlers to it.
 *
 * A call is answered per level run (the workflow that waited): a call id may come again from another level run (a level
 * an escalation runs again asks its question again, and a model's call ids may repeat: the demo model's are a hash of
 * the call, some providers' a counter). That is a new wait, opened when `raise`'s `reopen` allows it.
 */
export class PendingInput {
  private readonly open = new Map<string, Interrupt>();
  /** Per answered call id, the level runs (workflow ids) whose wait on it is over; '': every run's. */
  private readonly answered = new Map<string, Set<string>>();
  /** The level run of each call taken by an answer, until its level clears it. */
  private readonly taken = new Map<string, string>();

  constructor(private readonly jobId: string) {}

  /**
   * Records a raised wait; false, recording nothing, when this level run's call was already answered, or when another
   * run's was and `reopen` says no. `reopen` is asked only then: it is where the caller's `patched()` goes, so jobs
   * recorded before repeated call ids re-opened still ignore them on replay.
   */
  raise(interrupt: Interrupt, reopen?: () => boolean): boolean {
    const over = this.answered.get(interrupt.call_id);
    if (over && (over.has(interrupt.workflow_id) || over.has('') || !reopen?.())) return false;
    this.open.set(interrupt.call_id, interrupt);
    return true;
  }

  /** The wait of `callId` is over (answered, or its level went on): that level run's wait is never re-opened. */
  clear(callId: string): void {
    const run = this.open.get(callId)?.workflow_id ?? this.taken.get(callId);
    this.open.delete(callId);
    this.taken.delete(callId);
    const over = this.answered.get(callId) ?? new Set<string>();
    // A clear naming no run (none raised it here) closes the call for every run; a repeated clear adds nothing.
    if (run !== undefined || over.size === 0) over.add(run ?? '');
    this.answered.set(callId, over);
  }

  /** The open wait of `callId`, removed so it is answered at most once (a retried resume gets unknown_call_id). */
  take(callId: string): Interrupt | undefined {
    const interrupt = this.open.get(callId);
    this.open.delete(callId);
    if (interrupt) this.taken.set(callId, interrupt.workflow_id);
    return interrupt;
  }

  get(callId: string): Interrupt | undefined {
    return this.open.get(callId);
  }

  /** Whether `callId` is open or was answered: a relayed question has arrived either way. */
  known(callId: string): boolean {
    return this.open.has(callId) || this.answered.has(callId);
  }

  /** Answered, and not open again (asked anew by another level run). */
  wasAnswered(callId: string): boolean {
    return this.answered.has(callId) && !this.open.has(callId);
  }

  get size(): number {
    return this.open.size;
  }

  /** The open `ask_user` questions, as the interrupts query answers them (approvals and tasks are answered elsewhere). */
  questions(): PendingInterrupt[] {
    return this.asks().map((i) => ({
      call_id: i.call_id,
      question: i.text,
      role: i.role,
      ...(i.budget ? { choices: budgetChoices(i.budget.scope, i.budget.defaultRaiseUsd, i.budget.cheaperTier) } : {}),
    }));
  }

  /**
   * Why an answer to `callId` is refused now (answerRefusal over the open questions), or undefined. A budget decision
   * takes only its answers (pure/budget-decision.ts): any other is refused, so the person who gave it hears so at once.
   */
  refusal(callId: string, answer?: string): ApplicationFailure | undefined {
    const refused = answerRefusal(
      this.jobId,
      callId,
      this.asks().map((i) => i.call_id),
    );
    const terms = this.open.get(callId)?.budget;
    if (refused || !terms || answer === undefined) return refused;
    if (parseBudgetDecision(answer, terms.scope, terms.defaultRaiseUsd, terms.cheaperTier)) return undefined;
    const choices = budgetChoices(terms.scope, terms.defaultRaiseUsd, terms.cheaperTier);
    return ApplicationFailure.create({
      type: INVALID_BUDGET_DECISION,
      message: `job ${this.jobId} waits on a budget decision: answer one of ${choices.map((c) => `"${c}"`).join(', ')}`,
    });
  }

  private asks(): Interrupt[] {
    return [...this.open.values()].filter((i) => i.kind === 'ask_user');
  }
}
