import type { WorkflowHandle } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
// The SDK's own decoding of history payloads (codecs, then the payload converter), as its client uses for results.
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { redactPrompt } from './redact';

type HistoryEvent = NonNullable<Awaited<ReturnType<WorkflowHandle['fetchHistory']>>['events']>[number];

/** One model call of a level run, as the level's workflow history records it. */
export interface TranscriptCall {
  /** The tool-loop round (1, 2, …). */
  round: number;
  /** The activity attempt that answered (Temporal retries a failed model call); 1 when the first try answered. */
  attempt: number;
  /** Why the call was tried again: the previous attempt's failure. */
  retried_because: string | null;
  /** Null while the call runs, or when it failed for good (`failure`). */
  provider: string | null;
  model: string | null;
  usage: { prompt_tokens: number; completion_tokens: number; reasoning_tokens: number } | null;
  cost_usd: number | null;
  failure: string | null;
}

export interface TranscriptMessage {
  role: string;
  content: string | null;
  tool_calls: { id: string; name: string; arguments: string }[];
  tool_call_id: string | null;
}

/** What a level run sent and got back: the whole conversation of its last model call, and that call's answer. */
export interface StepTranscript {
  level_id: string;
  calls: TranscriptCall[];
  /** The prompt as sent (system and user messages), then each tool round: calls with arguments, results. */
  messages: TranscriptMessage[];
  /** The level's answer (its output), once the last call answered without a tool call. */
  output: string | null;
  /** The tools offered to the model, by name. */
  tools: string[];
}

interface CallInput {
  messages?: { role?: string; content?: string | null; tool_calls?: RawToolCall[]; tool_call_id?: string }[];
  tools?: { function?: { name?: string } }[];
}
interface RawToolCall {
  id?: string;
  function?: { name?: string; arguments?: string };
}
interface CallReply {
  provider?: string;
  model?: string;
  content?: string | null;
  toolCalls?: RawToolCall[];
  usage?: { promptTokens?: number; completionTokens?: number; reasoningTokens?: number };
  costUsd?: number;
}

/** Keel's own redaction (jobs/redact.ts) over what the transcript shows: a secret a tool read is not shown either. */
const redacted = (text: string | null | undefined): string | null => (text == null ? null : redactPrompt(text).text);
const toolCallsOf = (calls: RawToolCall[] | undefined) =>
  (calls ?? []).map((c) => ({
    id: c.id ?? '',
    name: c.function?.name ?? '',
    arguments: redacted(c.function?.arguments ?? '') ?? '',
  }));

/**
 * Reads a level run's transcript from its workflow history: each `callModel` activity's input (the messages as sent)
 * and result (who answered, usage, content and tool calls), and the attempt that answered with the failure before it.
 * The events carry previews only (280 characters); the history carries what was sent. Payloads are decoded with the
 * client's data converter, so a codec configured there applies here too.
 */
export async function transcriptFromHistory(
  levelId: string,
  events: readonly HistoryEvent[],
  converter: LoadedDataConverter,
): Promise<StepTranscript> {
  const scheduled = new Map<string, { round: number; input: CallInput }>();
  const calls: TranscriptCall[] = [];
  const byScheduled = new Map<string, TranscriptCall>();
  let lastInput: CallInput | null = null;
  let lastReply: CallReply | null = null;
  let round = 0;
  for (const event of events) {
    const id = String(event.eventId ?? '');
    const s = event.activityTaskScheduledEventAttributes;
    if (s && s.activityType?.name === 'callModel') {
      round += 1;
      const [input] = (await decodeArrayFromPayloads(converter, s.input?.payloads)) as [CallInput | undefined];
      scheduled.set(id, { round, input: input ?? {} });
      lastInput = input ?? {};
      lastReply = null;
      const call: TranscriptCall = {
        round,
        attempt: 1,
        retried_because: null,
        provider: null,
        model: null,
        usage: null,
        cost_usd: null,
        failure: null,
      };
      calls.push(call);
      byScheduled.set(id, call);
      continue;
    }
    const started = event.activityTaskStartedEventAttributes;
    if (started) {
      const call = byScheduled.get(String(started.scheduledEventId ?? ''));
      if (call) {
        call.attempt = started.attempt ?? 1;
        call.retried_because = started.lastFailure?.message ?? null;
      }
      continue;
    }
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed) {
      const call = byScheduled.get(String(completed.scheduledEventId ?? ''));
      if (!call) continue;
      const [reply] = (await decodeArrayFromPayloads(converter, completed.result?.payloads)) as [CallReply | undefined];
      call.provider = reply?.provider ?? null;
      call.model = reply?.model ?? null;
      call.cost_usd = reply?.costUsd ?? null;
      call.usage = reply?.usage
        ? {
            prompt_tokens: reply.usage.promptTokens ?? 0,
            completion_tokens: reply.usage.completionTokens ?? 0,
            reasoning_tokens: reply.usage.reasoningTokens ?? 0,
          }
        : null;
      lastReply = reply ?? null;
      continue;
    }
    const failed = event.activityTaskFailedEventAttributes ?? event.activityTaskTimedOutEventAttributes;
    if (failed) {
      const call = byScheduled.get(String(failed.scheduledEventId ?? ''));
      if (call) call.failure = failed.failure?.message ?? 'the model call failed';
    }
  }
  const messages: TranscriptMessage[] = (lastInput?.messages ?? []).map((m) => ({
    role: m.role ?? 'user',
    content: redacted(m.content),
    tool_calls: toolCallsOf(m.tool_calls),
    tool_call_id: m.tool_call_id ?? null,
  }));
  // The last reply is part of the conversation too: its tool calls (a run still in its loop) or its answer.
  if (lastReply) {
    messages.push({
      role: 'assistant',
      content: redacted(lastReply.content),
      tool_calls: toolCallsOf(lastReply.toolCalls),
      tool_call_id: null,
    });
  }
  const answered = lastReply && (lastReply.toolCalls ?? []).length === 0;
  return {
    level_id: levelId,
    calls,
    messages,
    output: answered ? redacted(lastReply?.content ?? '') : null,
    tools: (lastInput?.tools ?? []).map((t) => t.function?.name ?? '').filter(Boolean),
  };
}
