import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/client';
import { KEEL_KIND } from '../pure/search-attributes';
import type { deliverChatReply, relayChatTurn } from '../workflows/chat-relay';
import { chatRelayWorkflowId, type ChatDelivery, type ChatThreadRef } from '../chat-relay/definitions';
import { temporalCall, type TemporalCaller } from '../temporal/temporal-call';

/** Where the API starts chat work: the job task queue, whose workers carry the chat activities. */
/** The inbound request is answered within TEMPORAL_DOWN_ANSWER_MS even when Temporal is unreachable. */
export interface ChatWorkStarter extends TemporalCaller {
  taskQueue: string;
}

/**
 * Starts a durable post (or update) of one message, under a workflow id derived from what caused it: a redelivered
 * request starts nothing new, even after the first post is done. Returns once Temporal has it, so the inbound request can be acknowledged at once.
 */
export async function startChatDelivery(
  deps: ChatWorkStarter,
  workflowId: string,
  delivery: ChatDelivery,
): Promise<void> {
  await startOnce(deps, 'the chat reply was not queued', () =>
    deps.temporal.workflow.start<typeof deliverChatReply>('deliverChatReply', {
      workflowId,
      taskQueue: deps.taskQueue,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      args: [delivery],
      typedSearchAttributes: [{ key: KEEL_KIND, value: 'relay' }],
      staticSummary: 'team chat reply',
    }),
  );
}

/** Starts the relay of a job's events to its thread; a job has one relay, so a second start is a no-op. */
export async function startChatRelay(deps: ChatWorkStarter, jobId: string, thread: ChatThreadRef): Promise<void> {
  await startOnce(deps, 'the chat relay was not started', () =>
    deps.temporal.workflow.start<typeof relayChatTurn>('relayChatTurn', {
      workflowId: chatRelayWorkflowId(jobId),
      taskQueue: deps.taskQueue,
      // Even after it finished: a second relay of the same job would post its answer twice.
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      args: [{ jobId, channel: thread.channel, threadTs: thread.threadTs }],
      typedSearchAttributes: [{ key: KEEL_KIND, value: 'relay' }],
      staticSummary: `team chat relay of ${jobId}`,
      memo: { channel: thread.channel, thread_ts: thread.threadTs },
    }),
  );
}

async function startOnce(deps: ChatWorkStarter, what: string, start: () => Promise<unknown>): Promise<void> {
  try {
    await temporalCall(deps, what, start);
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
