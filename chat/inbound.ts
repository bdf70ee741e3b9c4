import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import { appendPrompt, JobRunning } from '../jobs/append-prompt';
import { workflowFollowUpPolicy } from '../db/follow-up';
import type { FollowUpPolicy } from '../pure/follow-up-policy';
import type { JobsDeps } from '../jobs/deps';
import { Refusal, Unavailable } from '../refusals/refusal';
import { admit } from '../jobs/admit';
import { redactPrompt } from '../jobs/redact';
import { submitJob } from '../jobs/submit';
import { claimChatThread, getChatThread, recordChatTurn, releaseChatThread } from '../db/chat-threads';
import { findJob, isTerminalStatus } from '../db/jobs';
import { recordAnswer } from '../db/questions';
import type { TokenOwner } from '../db/tokens';
import { interruptsQuery, resumeUpdate } from '../workflows/human-input';
import type { ChatApp, ChatIdentity } from '../chat-relay/chat-app';
import { composeTurnPrompt, recentHistory } from '../chat-relay/history';
import { BUSY_TEXT, refusedText, START_FAILED_TEXT } from '../chat-relay/messages';
import type { ChatMessageEvent } from './payloads';
import { startChatDelivery, startChatRelay } from './replies';
import { isThreadReply, promptText, triageMessage, type DropRule } from './triage';
import type { ThreadMessage } from '../chat-relay/web-api';

/** The chat system retries an unacknowledged delivery for minutes; remember what was seen well past that. */
const DELIVERY_MEMORY_MS = 60 * 60_000;
/** A turn claim is held for well under a second; one this old was left by a process that died holding it. */
const STALE_CLAIM_SECONDS = 5 * 60;
/** The history read must leave the rest of the 3 s acknowledgement window; past this the turn starts without it. */
const HISTORY_DEADLINE_MS = 1_000;
/** A prompt's limit (POST /v1/chat) less room for the framing. */
const MAX_PROMPT_CHARS = 31_000;
/** How long a paused job has to take an answer given in the thread. */
const ANSWER_DEADLINE_MS = 2_000;

export type MessageOutcome =
  | { outcome: 'dropped'; rule: DropRule }
  /** `policy`: the workflow's follow-up policy took the message while a job ran (docs/follow-up-policies.md). */
  | { outcome: 'started'; job_id: string; workflow_id: string; policy?: FollowUpPolicy }
  | { outcome: 'busy' }
  /** Admission refused the turn (rate limit, monthly budget, disabled account); the person was told why. */
  | { outcome: 'refused'; code: string }
  | { outcome: 'failed' }
  | { outcome: 'answered'; job_id: string; call_id: string };

export interface MessageDelivery {
  eventId: string;
  event: ChatMessageEvent;
}

/** Who Keel is in the workspace; 503 while the chat system cannot say (the chat system then retries the delivery). */
export function chatIdentity(chat: ChatApp): Promise<ChatIdentity> {
  return lookUp(() => chat.identity());
}

async function lookUp<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new Unavailable('chat_unavailable', `the chat system's Web API did not answer: ${(err as Error).message}`);
  }
}

/** The principal a chat user acts as: their own user id, in the workspace's org, never an admin. */
export function chatPrincipal(teamId: string, userId: string): TokenOwner {
  return { token_id: 'chatapp', user_id: `chatapp:${userId}`, org_id: `chatapp:${teamId}`, is_admin: false };
}

/**
 * One inbound message: triage, then (if it passes) the thread's turn. Everything slow happens after the
 * acknowledgement, in Temporal: the turn's job, the relay of its events, the busy reply. What runs here is the
 * durable enqueue of that work.
 */
export async function handleMessage(
  deps: JobsDeps,
  chat: ChatApp,
  delivery: MessageDelivery,
  log: FastifyBaseLogger,
): Promise<MessageOutcome> {
  const { event } = delivery;
  // Look-ups that can fail come before the delivery claims, so a failure here (503) leaves the retry welcome.
  const identity = await chatIdentity(chat);
  const thread = isThreadReply(event) ? await getChatThread(deps.pool, event.channel, event.thread_ts!) : undefined;
  const authorTeamId =
    event.user_team ??
    event.team ??
    (event.user && !event.bot_id ? await lookUp(() => chat.authorTeam(event.user!)) : undefined);
  // Both claims are taken: a retry repeats the event id, and a mention comes twice (message and app_mention).
  const [freshEvent, freshMessage] = await Promise.all([
    deps.queue.claimOnce(`chatapp:event:${delivery.eventId}`, DELIVERY_MEMORY_MS),
    deps.queue.claimOnce(`chatapp:message:${event.channel}:${event.ts}`, DELIVERY_MEMORY_MS),
  ]);
  const verdict = triageMessage(event, {
    botUserId: identity.botUserId,
    teamId: identity.teamId,
    authorTeamId,
    duplicate: !freshEvent || !freshMessage,
    threadKnown: thread !== undefined,
  });
  if (!verdict.act) {
    log.debug(
      { rule: verdict.rule, event_id: delivery.eventId, channel: event.channel },
      `chatapp: dropped (${verdict.rule})`,
    );
    return { outcome: 'dropped', rule: verdict.rule };
  }

  const threadTs = event.thread_ts ?? event.ts;
  const where = { channel: event.channel, threadTs };
  const principal = chatPrincipal(identity.teamId, event.user!);
  const text = redactPrompt(promptText(event, identity.botUserId)).text;
  const busy = async (): Promise<MessageOutcome> => {
    await startChatDelivery(deps, `chatapp-busy/${delivery.eventId}`, { ...where, text: BUSY_TEXT });
    return { outcome: 'busy' };
  };

  if (!(await claimChatThread(deps.pool, where, delivery.eventId, STALE_CLAIM_SECONDS))) return busy();
  try {
    return await runTurn(deps, chat, { delivery, where, principal, text, busy, botUserId: identity.botUserId }, log);
  } catch (err) {
    // Acknowledged anyway: a redelivery would be dropped as a duplicate. The person hears it failed and may resend,
    // which works at once because the claim is given back below.
    log.error({ err, event_id: delivery.eventId }, 'chatapp: the turn could not start');
    await startChatDelivery(deps, `chatapp-failed/${delivery.eventId}`, { ...where, text: START_FAILED_TEXT }).catch(
      (postErr: unknown) => log.error({ err: postErr }, 'chatapp: could not say that the turn failed'),
    );
    return { outcome: 'failed' };
  } finally {
    await releaseChatThread(deps.pool, where, delivery.eventId);
  }
}

interface Turn {
  delivery: MessageDelivery;
  where: { channel: string; threadTs: string };
  principal: TokenOwner;
  text: string;
  busy: () => Promise<MessageOutcome>;
  botUserId: string;
}

/**
 * The turn of a claimed thread: answer the running job's question, say it is busy (the spec's reply, unless the
 * workflow sets a follow-up policy, which then decides), or start the next job.
 */
async function runTurn(deps: JobsDeps, chat: ChatApp, turn: Turn, log: FastifyBaseLogger): Promise<MessageOutcome> {
  const { event } = turn.delivery;
  // Read again under the claim: the thread may have started a turn since triage looked.
  const thread = await getChatThread(deps.pool, turn.where.channel, turn.where.threadTs);
  let policy: FollowUpPolicy | undefined;
  if (thread) {
    const job = await findJob(deps.pool, thread.last_job_id);
    if (job && !isTerminalStatus(job.status)) {
      if (job.status === 'paused') {
        const answered = await answerOpenQuestion(deps, job.job_id, turn.text, turn.principal.user_id, log);
        if (answered) return { outcome: 'answered', job_id: job.job_id, call_id: answered };
      }
      policy = (await workflowFollowUpPolicy(deps.pool, thread.workflow_id)) ?? undefined;
      // `reject` is the spec's behaviour in a thread: the reply that it is still working, not an error.
      if (!policy || policy === 'reject') return turn.busy();
    }
  }
  let started: { job_id: string; workflow_id: string };
  try {
    // A chat person has no identity account: their spend (by their chat user id) is held to the default budget.
    started = await admit(deps, turn.principal, { unknownUsers: 'default-budget' }, async (admitted) => {
      const history = isThreadReply(event) ? await readHistory(chat, event, log) : [];
      const prompt = composeTurnPrompt(
        history.map((m) => ({ ...m, text: redactPrompt(m.text).text })),
        turn.text,
        { botUserId: turn.botUserId, maxChars: MAX_PROMPT_CHARS },
      );
      return thread
        ? appendPrompt(deps, admitted, { workflowId: thread.workflow_id, prompt, followUp: policy }, log)
        : submitJob(deps, admitted, { prompt }, log);
    });
  } catch (err) {
    // The workflow's policy changed to `reject`, or a job started, since the look above.
    if (err instanceof JobRunning) return turn.busy();
    if (!isRefusal(err)) throw err;
    log.info({ code: err.code, event_id: turn.delivery.eventId }, `chatapp: turn refused (${err.code})`);
    await startChatDelivery(deps, `chatapp-refused/${turn.delivery.eventId}`, {
      ...turn.where,
      text: refusedText(err.message),
    });
    return { outcome: 'refused', code: err.code };
  }
  await recordChatTurn(deps.pool, {
    ...turn.where,
    workflowId: started.workflow_id,
    userId: event.user,
    jobId: started.job_id,
  });
  // A prompt amended into the running job is relayed by that job's relay already (a second start is a no-op).
  await startChatRelay(deps, started.job_id, turn.where);
  return {
    outcome: 'started',
    job_id: started.job_id,
    workflow_id: started.workflow_id,
    ...(policy ? { policy } : {}),
  };
}

/** Admission's refusals: the person is told why, where a failure to start is only "try again". */
function isRefusal(err: unknown): err is Refusal {
  return err instanceof Refusal && ['over_budget', 'forbidden', 'rate_limited'].includes(err.kind);
}

async function readHistory(chat: ChatApp, event: ChatMessageEvent, log: FastifyBaseLogger): Promise<ThreadMessage[]> {
  if (!chat.api || chat.historyMessages === 0) return [];
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), HISTORY_DEADLINE_MS);
  });
  try {
    const messages = await Promise.race([chat.api.threadReplies(event.channel, event.thread_ts!), late]);
    if (!messages) {
      log.warn({ channel: event.channel }, 'chatapp: thread history was too slow; the turn starts without it');
      return [];
    }
    return recentHistory(messages, event.ts, chat.historyMessages);
  } catch (err) {
    log.warn({ err, channel: event.channel }, 'chatapp: thread history could not be read; the turn starts without it');
    return [];
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A reply in the thread of a job paused on a question answers it: the same `resume` update as POST
 * /v1/jobs/:id/resume. Returns the answered call id, or undefined when the job no longer waits (the caller then
 * treats the message as arriving during a turn).
 */
async function answerOpenQuestion(
  deps: JobsDeps,
  jobId: string,
  answer: string,
  answeredBy: string,
  log: FastifyBaseLogger,
): Promise<string | undefined> {
  const handle = deps.temporal.workflow.getHandle(jobId);
  let callId: string | undefined;
  try {
    callId = await deps.temporal.withDeadline(Date.now() + ANSWER_DEADLINE_MS, async () => {
      const [open] = await handle.query(interruptsQuery);
      if (!open) return undefined;
      await handle.executeUpdate(resumeUpdate, { args: [{ call_id: open.call_id, answer }] });
      return open.call_id;
    });
  } catch (err) {
    const refused = err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure;
    log[refused ? 'debug' : 'warn']({ err, job_id: jobId }, 'chatapp: the thread reply could not answer the job');
    return undefined;
  }
  if (callId) await recordChatAnswer(deps, { jobId, callId, answer, answeredBy }, log);
  return callId;
}

/**
 * Who answered, as POST /v1/jobs/:id/resume records it (the inbox and the job page show it). The job took the answer
 * already, so a failure to record it is logged, never turned into "the turn failed".
 */
export async function recordChatAnswer(
  deps: JobsDeps,
  answer: { jobId: string; callId: string; answer: string; answeredBy: string },
  log: FastifyBaseLogger,
): Promise<void> {
  try {
    await recordAnswer(deps.pool, answer);
  } catch (err) {
    log.warn({ err, job_id: answer.jobId }, 'chatapp: the answer was taken but who gave it could not be recorded');
  }
}
