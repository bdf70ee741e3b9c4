import type { Pool } from 'pg';
import { jobEventFeed } from '../events/job-event-feed';
import type { EventEnvelope } from '../events/envelope';
import type { QueueStore } from '../queue/queue-store';
import type { ChatRelayInput, ChatRelaySlice, ChatRelayState } from '../chat-relay/definitions';
import {
  approvalMessage,
  errorMessage,
  finalMessage,
  progressMessage,
  questionMessage,
  waitStepMessage,
} from '../chat-relay/messages';
import type { ChatWebApi } from '../chat-relay/web-api';

export interface RelayDeps {
  pool: Pool;
  queue: QueueStore;
  api: ChatWebApi;
  /** How often an idle feed re-reads the database in case a live message was lost. */
  pollMs: number;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Posts one job's events in its thread from `state` on, until the job's terminal event is posted (`done`) or `signal`
 * aborts (the slice ended, or the activity was cancelled). `onProgress` is told the new state after each event's posts,
 * so a retry resumes after the last event fully posted: a crash between a post and its report can repeat that one post,
 * never skip one.
 */
export async function relayJobEvents(
  deps: RelayDeps,
  input: ChatRelayInput & { state: ChatRelayState },
  signal: AbortSignal,
  onProgress: (state: ChatRelayState) => void,
): Promise<ChatRelaySlice> {
  const { api } = deps;
  const where = { channel: input.channel, threadTs: input.threadTs };
  const state: ChatRelayState = { ...input.state };

  const showProgress = async (level: string | undefined, phase: 'working' | 'done' | 'failed') => {
    const message = progressMessage(level, phase);
    if (state.progressTs) await api.updateMessage({ channel: input.channel, ts: state.progressTs, ...message });
    else if (phase === 'working') state.progressTs = await api.postMessage({ ...where, ...message });
  };

  const post = async (event: EventEnvelope): Promise<boolean> => {
    const { payload } = event;
    switch (event.kind) {
      case 'level_started':
        state.level = text(payload.role) || event.agent_role;
        await showProgress(state.level, 'working');
        return false;
      case 'ask_user':
        await api.postMessage({
          ...where,
          ...questionMessage(
            input.jobId,
            text(payload.call_id),
            text(payload.question),
            text(payload.answer_url) || undefined,
          ),
        });
        return false;
      case 'approval_requested':
        await api.postMessage({
          ...where,
          ...approvalMessage(
            text(payload.approval_id),
            text(payload.action),
            text(payload.reason),
            text(payload.answer_url) || undefined,
          ),
        });
        return false;
      case 'reminder_sent':
      case 'escalated':
      case 'timed_out':
        await api.postMessage({
          ...where,
          ...waitStepMessage(event.kind, {
            waitingFor: text(payload.waiting_for),
            text: text(payload.text),
            waitedSeconds: typeof payload.waited_seconds === 'number' ? payload.waited_seconds : 0,
            to: text(payload.to) || undefined,
            people: Array.isArray(payload.people)
              ? payload.people.map((p: unknown) => text((p as { email?: unknown } | null)?.email)).filter(Boolean)
              : undefined,
            outcome: text(payload.decision) || text(payload.answer) || undefined,
          }),
        });
        return false;
      case 'final': {
        await showProgress(state.level, 'done');
        const files = Array.isArray(payload.created_files) ? payload.created_files.map(String) : [];
        await api.postMessage({
          ...where,
          ...finalMessage(text(payload.summary) || text(payload.agent_message) || 'Done.', files),
        });
        return true;
      }
      case 'error':
        await showProgress(state.level, 'failed');
        await api.postMessage({
          ...where,
          ...errorMessage(text(payload.message) || text(payload.code) || 'the job failed'),
        });
        return true;
      default:
        return false;
    }
  };

  const feed = jobEventFeed({
    pool: deps.pool,
    queue: deps.queue,
    jobId: input.jobId,
    after: state.after,
    pollMs: deps.pollMs,
    signal,
  });
  for await (const event of feed) {
    const terminal = await post(event);
    state.after = event.sequence;
    onProgress({ ...state });
    if (terminal) return { ...state, done: true };
  }
  // The feed also ends for a job that closed without a terminal event (terminated by an operator): nothing will come.
  return { ...state, done: !signal.aborted };
}
