import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { ChatDelivery, ChatRelayInput, ChatRelayState } from '../chat-relay/definitions';

// A slice follows the job's events for up to 10 minutes (activities/chat-relay.ts), heartbeating as it goes; a worker that dies
// mid-slice is noticed within the heartbeat timeout and the slice resumes elsewhere from its last heartbeat.
const { relayChatEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

const { deliverChatMessage } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 20 },
});

/** A job waiting days on a person costs two history events per slice; start afresh long before that matters. */
const SLICES_PER_RUN = 200;

/**
 * Follows one job's events and posts them in the chat thread its turn came from: one progress message updated in place
 * with the current level, questions and approval buttons as they come, then the summary and created files (or the
 * error). Durable: the stored events are the source, so a restart of any process resumes and the final answer is
 * never lost.
 */
export async function relayChatTurn(input: ChatRelayInput): Promise<void> {
  let state: ChatRelayState = input.state ?? { after: 0 };
  for (let slice = 0; slice < SLICES_PER_RUN; slice++) {
    const next = await relayChatEvents({ ...input, state });
    if (next.done) return;
    state = { after: next.after, progressTs: next.progressTs, level: next.level };
  }
  await continueAsNew<typeof relayChatTurn>({ ...input, state });
}

/** One message posted (or updated) in a thread, retried until the chat system takes it. */
export async function deliverChatReply(delivery: ChatDelivery): Promise<void> {
  await deliverChatMessage(delivery);
}
