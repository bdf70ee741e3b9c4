import {
  condition,
  getExternalWorkflowHandle,
  patched,
  proxyActivities,
  setHandler,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { answerSignal, interruptClearedSignal, interruptRaisedSignal, type JobIds } from './definitions';
import type { Emit } from './emit';
import { approvalDecisionSignal } from './human-input';
import { humanTaskCompletedSignal, type HumanTaskCompletion } from './product-definitions';
import { APPROVAL_POLICY_PATCH } from './patches';
import { approvalFacts, evaluatePolicy, policyDecider } from '../pure/approval-policy';

const { markJobStatus, createApproval, createHumanTask, approvalPolicyFor } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumAttempts: 5 },
});

/**
 * A product-build step's ways of waiting for a person: a question (`ask_user`, answered through the job's resume
 * Update), an approval (decided through the approvals API) and a human task (completed through the human-tasks API).
 * Each pauses the job the way a level's tool calls do: the job records `paused` and learns of the interrupt, so
 * `POST /v1/jobs/:id/resume` validates against it. Call once, at the start of the step's workflow.
 */
export function peopleFor(ids: JobIds, role: string, emit: Emit): People {
  return new People(ids, role, emit);
}

/** A step's waits for people, with the answers, decisions and completions signalled to it. */
export class People {
  private readonly stepId: string;
  private readonly parentId: string | undefined;
  private readonly answers = new Map<string, string>();
  private readonly decisions = new Map<
    string,
    { decision: 'approve' | 'reject'; comment?: string; decided_by?: string }
  >();
  private readonly completions = new Map<string, HumanTaskCompletion>();

  constructor(
    private readonly ids: JobIds,
    private readonly role: string,
    private readonly emit: Emit,
  ) {
    const info = workflowInfo();
    this.stepId = info.workflowId;
    this.parentId = info.parent?.workflowId;
    setHandler(answerSignal, ({ call_id, answer }) => void this.answers.set(call_id, answer));
    setHandler(approvalDecisionSignal, (d) => void this.decisions.set(d.approval_id, d));
    setHandler(humanTaskCompletedSignal, (c) => void this.completions.set(c.task_id, c));
  }

  /** Asks one question and returns the answer (already redacted by the API). */
  async ask(question: string): Promise<{ call_id: string; answer: string }> {
    const callId = `ask-${uuid4()}`;
    await this.wait(
      { kind: 'ask_user', call_id: callId, text: question },
      () => this.emit(this.role, 'ask_user', { call_id: callId, question, level_id: this.stepId }),
      () => this.answers.has(callId),
    );
    return { call_id: callId, answer: this.answers.get(callId)! };
  }

  /** Requests an approval and returns the decision. */
  async approve(action: string, reason: string): Promise<{ approved: boolean; comment?: string }> {
    const { ids, role, stepId, emit } = this;
    const callId = `approval-${uuid4()}`;
    const approvalId = `ap-${uuid4()}`;
    // patched: steps recorded before approval policies created the approval and waited (docs/approval-policies.md).
    const governed = patched(APPROVAL_POLICY_PATCH) ? await approvalPolicyFor({ jobId: ids.job_id }) : undefined;
    const facts = governed
      ? approvalFacts({ action, reason, role, writtenFiles: [], costUsd: governed.jobCostUsd })
      : undefined;
    const verdict = governed && facts ? evaluatePolicy(governed.policy, facts) : undefined;
    await createApproval({
      approval_id: approvalId,
      job_id: ids.job_id,
      workflow_id: ids.workflow_id,
      waiting_workflow_id: stepId,
      role,
      call_id: callId,
      action,
      reason,
      ...(facts ? { request: facts } : {}),
      ...(verdict ? { decided: { decision: verdict.decision, decided_by: policyDecider(verdict.rule_id) } } : {}),
    });
    if (verdict) {
      await emit(role, 'approval_decided', {
        approval_id: approvalId,
        call_id: callId,
        level_id: stepId,
        decision: verdict.decision,
        decided_by: policyDecider(verdict.rule_id),
        rule_id: verdict.rule_id,
        action,
      });
      return { approved: verdict.decision === 'approve' };
    }
    await this.wait(
      { kind: 'approval', call_id: callId, text: action, approval_id: approvalId },
      async () => {
        await emit(role, 'approval_requested', {
          approval_id: approvalId,
          call_id: callId,
          action,
          reason,
          level_id: stepId,
        });
        await emit(role, 'ui_action', { level_id: stepId, action: 'open_approval', target: approvalId, label: action });
      },
      () => this.decisions.has(approvalId),
    );
    const decision = this.decisions.get(approvalId)!;
    if (governed) {
      await emit(role, 'approval_decided', {
        approval_id: approvalId,
        call_id: callId,
        level_id: stepId,
        decision: decision.decision,
        decided_by: decision.decided_by ?? 'unknown',
        action,
        ...(decision.comment ? { comment: decision.comment } : {}),
      });
    }
    return { approved: decision.decision === 'approve', comment: decision.comment };
  }

  /** Assigns a task to a person (the job's creator unless named) and waits until it is completed. */
  async assignTask(task: {
    title: string;
    detail: string;
    assignee?: string;
    dueInHours?: number;
  }): Promise<HumanTaskCompletion> {
    const { ids, role, stepId, emit } = this;
    const taskId = `ht-${uuid4()}`;
    const stored = await createHumanTask({
      task_id: taskId,
      job_id: ids.job_id,
      workflow_id: ids.workflow_id,
      waiting_workflow_id: stepId,
      role,
      title: task.title,
      detail: task.detail,
      assignee: task.assignee,
      due_in_hours: task.dueInHours,
    });
    await this.wait(
      { kind: 'human_task', call_id: taskId, text: task.title },
      async () => {
        await emit(role, 'human_task_assigned', {
          task_id: taskId,
          title: task.title,
          detail: task.detail,
          assignee: stored.assignee,
          due_at: stored.due_at,
          state: 'open',
          level_id: stepId,
        });
        await emit(role, 'ui_action', { level_id: stepId, action: 'open_task', target: taskId, label: task.title });
      },
      () => this.completions.has(taskId),
    );
    return this.completions.get(taskId)!;
  }

  /**
   * Raises the interrupt (the job learns of it and records `paused`), then emits the event that tells people, then
   * waits: a client that answers as soon as it sees the event always finds the job ready to take the answer.
   */
  private async wait(
    interrupt: { kind: 'ask_user' | 'approval' | 'human_task'; call_id: string; text: string; approval_id?: string },
    announce: () => Promise<unknown>,
    done: () => boolean,
  ): Promise<void> {
    const { parentId, ids, role, stepId } = this;
    if (parentId) {
      await getExternalWorkflowHandle(parentId).signal(interruptRaisedSignal, {
        ...interrupt,
        role,
        workflow_id: stepId,
      });
    }
    await markJobStatus({ jobId: ids.job_id, status: 'paused' });
    await announce();
    await condition(done);
    await markJobStatus({ jobId: ids.job_id, status: 'running' });
    if (parentId)
      await getExternalWorkflowHandle(parentId).signal(interruptClearedSignal, { call_id: interrupt.call_id });
  }
}
