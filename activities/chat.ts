import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Pool } from 'pg';
import { relayJobEvents } from './chat-relay';
import type { ChatWebApi } from '../chat-relay/web-api';
import type { QueueStore } from '../queue/queue-store';
import {
  CHAT_NOT_CONFIGURED,
  CHAT_REFUSED,
  type ChatDelivery,
  type ChatRelayInput,
  type ChatRelaySlice,
  type ChatRelayState,
} from '../chat-relay/definitions';

/** How long one relay activity follows a job before handing back to its workflow. */
const RELAY_SLICE_MS = 10 * 60_000;
/** Well under the relay's heartbeat timeout (1 minute) while a job is quiet. */
const HEARTBEAT_EVERY_MS = 10_000;
const FEED_POLL_MS = 2_000;

/** Web API errors worth retrying; any other error code (bad channel, revoked token, …) will not change by waiting. */
const TRANSIENT_CHAT_ERRORS = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

/** A Web API refusal that retrying cannot fix becomes a non-retryable failure naming the chat system's error. */
async function callChat<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const e = err as { code?: string; data?: { error?: string } };
    const code = e.data?.error;
    if (e.code === 'slack_webapi_platform_error' && code && !TRANSIENT_CHAT_ERRORS.has(code)) {
      throw ApplicationFailure.create({
        type: CHAT_REFUSED,
        message: `the chat system refused: ${code}`,
        nonRetryable: true,
      });
    }
    throw err;
  }
}

export function chatActivities(deps: { pool: Pool; queue: QueueStore; chat?: ChatWebApi }) {
  const api = (): ChatWebApi => {
    if (deps.chat) return deps.chat;
    throw ApplicationFailure.create({
      type: CHAT_NOT_CONFIGURED,
      message: 'this worker has no chat bot token (set CHATAPP_BOT_TOKEN_SECRET_ID)',
      // Another worker of the task queue may have one; and an operator can configure this one and restart it.
      nonRetryable: false,
    });
  };
  return {
    /**
     * Follows a job's events for one slice and posts them in its chat thread; resumes from the last heartbeat when
     * retried, so every event is posted at least once and the terminal answer is never skipped.
     */
    async relayChatEvents(input: ChatRelayInput & { state: ChatRelayState }): Promise<ChatRelaySlice> {
      const chat = api();
      const context = Context.current();
      let state = (context.info.heartbeatDetails as ChatRelayState | undefined) ?? input.state;
      const abort = new AbortController();
      const stop = () => abort.abort();
      const slice = setTimeout(stop, RELAY_SLICE_MS);
      const beat = setInterval(() => context.heartbeat(state), HEARTBEAT_EVERY_MS);
      context.cancellationSignal.addEventListener('abort', stop);
      try {
        const wrapped: ChatWebApi = {
          authTest: () => callChat(() => chat.authTest()),
          postMessage: (post) => callChat(() => chat.postMessage(post)),
          updateMessage: (update) => callChat(() => chat.updateMessage(update)),
          threadReplies: (channel, ts) => callChat(() => chat.threadReplies(channel, ts)),
          userTeam: (user) => callChat(() => chat.userTeam(user)),
        };
        const result = await relayJobEvents(
          { pool: deps.pool, queue: deps.queue, api: wrapped, pollMs: FEED_POLL_MS },
          { ...input, state },
          abort.signal,
          (next) => {
            state = next;
            context.heartbeat(state);
          },
        );
        // Cancelled rather than at the end of a slice: let Temporal see the cancellation.
        if (context.cancellationSignal.aborted) throw context.cancellationSignal.reason;
        return result;
      } finally {
        clearTimeout(slice);
        clearInterval(beat);
        context.cancellationSignal.removeEventListener('abort', stop);
      }
    },

    /** Posts one message in a thread, or updates one already posted. */
    async deliverChatMessage(delivery: ChatDelivery): Promise<void> {
      const chat = api();
      const where = { channel: delivery.channel, threadTs: delivery.threadTs };
      const content = { text: delivery.text, ...(delivery.blocks ? { blocks: delivery.blocks } : {}) };
      if (delivery.updateTs) {
        const ts = delivery.updateTs;
        await callChat(() => chat.updateMessage({ channel: delivery.channel, ts, ...content }));
      } else {
        await callChat(() => chat.postMessage({ ...where, ...content }));
      }
    },
  };
}
