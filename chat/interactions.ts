import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { decideApprovalAs } from '../jobs/decide-approval';
import type { JobsDeps } from '../jobs/deps';
import { httpAnswer } from '../http/errors';
import { canSee } from '../jobs/visibility';
import { redactPrompt } from '../jobs/redact';
import { findJob } from '../db/jobs';
import { resumeUpdate } from '../workflows/human-input';
import type { ChatApp } from '../chat-relay/chat-app';
import { chatIdentity, chatPrincipal, recordChatAnswer } from './inbound';
import {
  ANSWER_ACTION,
  answeredMessage,
  approvalDecidedMessage,
  APPROVE_ACTION,
  REJECT_ACTION,
  type ChatMessage,
} from '../chat-relay/messages';
import type { BlockActions } from './payloads';
import { startChatDelivery } from './replies';

const AnswerValue = z.object({
  job_id: z.string().min(1).max(100),
  call_id: z.string().min(1).max(200),
  answer: z.string().min(1).max(500),
});

/** How long the job has to take a button's answer. */
const ANSWER_DEADLINE_MS = 2_000;

export type InteractionOutcome =
  | { outcome: 'ignored'; reason: string }
  | { outcome: 'approval_decided'; approval_id: string; decision: 'approve' | 'reject' }
  | { outcome: 'answered'; job_id: string; call_id: string };

/**
 * A button press on one of Keel's messages. Approve/reject go through the same decide path as
 * POST /v1/approvals/:id/decide (recorded as decided by `chatapp:<user>`); an answer button resumes the job like
 * POST /v1/jobs/:id/resume. The pressed message is then updated (durably, through Temporal) to show the outcome.
 */
export async function handleBlockActions(
  deps: JobsDeps,
  chat: ChatApp,
  payload: BlockActions,
  log: FastifyBaseLogger,
): Promise<InteractionOutcome> {
  const identity = await chatIdentity(chat);
  const userTeam = payload.user.team_id ?? payload.team?.id;
  if (userTeam !== identity.teamId) return ignored(log, 'outside_workspace');
  const action = payload.actions[0]!;
  const principal = chatPrincipal(identity.teamId, payload.user.id);
  const channel = payload.container?.channel_id ?? payload.channel?.id;
  const messageTs = payload.container?.message_ts ?? payload.message?.ts;
  const showOutcome = async (message: ChatMessage) => {
    if (!channel || !messageTs) return;
    const threadTs = payload.container?.thread_ts ?? payload.message?.thread_ts ?? messageTs;
    await startChatDelivery(deps, `chatapp-pressed/${channel}/${messageTs}`, {
      channel,
      threadTs,
      updateTs: messageTs,
      ...message,
    });
  };

  if (action.action_id === APPROVE_ACTION || action.action_id === REJECT_ACTION) {
    const approvalId = action.value;
    if (!approvalId) return ignored(log, 'no_value');
    const decision = action.action_id === APPROVE_ACTION ? 'approve' : 'reject';
    try {
      const approval = await decideApprovalAs(deps, principal, approvalId, decision, undefined, log);
      await showOutcome(approvalDecidedMessage(approval.action, decision, payload.user.id));
      return { outcome: 'approval_decided', approval_id: approvalId, decision };
    } catch (err) {
      // Decided already (by a person in the approvals view, or a second press) or not this workspace's: nothing to do.
      const answer = httpAnswer(err);
      if (answer && answer.status < 500) return ignored(log, answer.code);
      throw err;
    }
  }

  if (action.action_id.startsWith(`${ANSWER_ACTION}:`)) {
    const parsed = AnswerValue.safeParse(parseJson(action.value));
    if (!parsed.success) return ignored(log, 'bad_value');
    const { job_id, call_id } = parsed.data;
    const job = await findJob(deps.pool, job_id);
    if (!job || !canSee(principal, job.org_id)) return ignored(log, 'not_found');
    const answer = redactPrompt(parsed.data.answer).text;
    try {
      await deps.temporal.withDeadline(Date.now() + ANSWER_DEADLINE_MS, () =>
        deps.temporal.workflow.getHandle(job_id).executeUpdate(resumeUpdate, { args: [{ call_id, answer }] }),
      );
    } catch (err) {
      const refused = err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure;
      if (refused || err instanceof WorkflowNotFoundError) return ignored(log, 'not_waiting');
      throw err;
    }
    await recordChatAnswer(deps, { jobId: job_id, callId: call_id, answer, answeredBy: principal.user_id }, log);
    await showOutcome(answeredMessage('Question answered.', answer, payload.user.id));
    return { outcome: 'answered', job_id, call_id };
  }
  return ignored(log, 'unknown_action');
}

function ignored(log: FastifyBaseLogger, reason: string): InteractionOutcome {
  log.debug({ reason }, `chatapp: interaction ignored (${reason})`);
  return { outcome: 'ignored', reason };
}

function parseJson(text: string | undefined): unknown {
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
