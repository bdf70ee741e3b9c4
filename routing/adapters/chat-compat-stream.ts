import OpenAI from 'openai';
import type { ToolCall } from '../chat-types';
import { classifyHttpFailure } from './classify';
import { reportedCostOf } from './reported-cost';
import { STREAM_STALL_MS, streamFailure, watchForStall } from './stall-watch';
import type { AdapterReply, AdapterRequest } from './types';

/**
 * The chat completions wire streamed (`stream: true`, usage in the last chunk through
 * `stream_options.include_usage`): each content, reasoning and tool-argument delta goes to `request.onPiece` as it
 * arrives, and the reply is the whole answer put back together, with the usage the stream ends with. A failure
 * before the first chunk is classified like a failed request; one after it (an `error` chunk, a lost connection, a
 * stream silent for the stall limit) is classified the same way, so the walk moves on exactly as for a failed request.
 */
export async function streamChatCompat(client: OpenAI, request: AdapterRequest): Promise<AdapterReply> {
  const onPiece = request.onPiece!;
  const stallMs = request.stallMs ?? STREAM_STALL_MS;
  const watch = watchForStall(request.signal, stallMs);
  const label = `${request.providerName}/${request.model.model}`;
  const body = {
    model: request.model.model,
    messages: request.messages as OpenAI.Chat.ChatCompletionMessageParam[],
    ...(request.tools?.length ? { tools: request.tools } : {}),
    ...request.effortFragment,
    stream: true,
    stream_options: { include_usage: true },
  } as OpenAI.Chat.ChatCompletionCreateParamsStreaming;

  let model = '';
  let content = '';
  let sawContent = false;
  let reasoning = '';
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  let usage: OpenAI.Completions.CompletionUsage | undefined;
  try {
    const stream = await client.chat.completions.create(body, { signal: watch.signal });
    for await (const chunk of stream) {
      watch.touch();
      model ||= chunk.model;
      if (chunk.usage) usage = chunk.usage;
      const delta = chunk.choices[0]?.delta;
      if (!delta) continue;
      if (typeof delta.content === 'string') {
        sawContent = true;
        content += delta.content;
        if (delta.content) onPiece({ kind: 'text', text: delta.content });
      }
      const thought = reasoningDelta(delta);
      if (thought) {
        reasoning += thought;
        onPiece({ kind: 'reasoning', text: thought });
      }
      for (const part of delta.tool_calls ?? []) {
        let slot = calls[part.index];
        if (!slot) calls[part.index] = slot = { id: '', name: '', arguments: '' };
        if (part.id) slot.id = part.id;
        const named = !slot.name && part.function?.name;
        if (named) slot.name = part.function!.name!;
        const args = part.function?.arguments ?? '';
        slot.arguments += args;
        if (args || named) {
          onPiece({
            kind: 'tool_arguments',
            text: args,
            toolCallIndex: part.index,
            ...(named ? { toolName: slot.name } : {}),
          });
        }
      }
    }
    // The client ends the iteration quietly when its signal aborts: a stall or a cancel is no answer.
    if (watch.signal.aborted) throw watch.signal.reason;
  } catch (err) {
    throw streamFailure(watch, midStreamFailure(err, label), { wire: 'chat_compat', request, stallMs });
  } finally {
    watch.stop();
  }

  const toolCalls: ToolCall[] = calls.flatMap((call, index) =>
    call
      ? [
          {
            id: call.id || `call_${index}`,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          },
        ]
      : [],
  );
  return {
    model: model || request.model.model,
    content: sawContent || content ? content : null,
    toolCalls,
    usage: {
      inputTokens: usage?.prompt_tokens ?? 0,
      cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
      // Includes the reasoning tokens, as OpenAI bills them.
      outputTokens: usage?.completion_tokens ?? 0,
      reasoningTokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
    },
    ...reportedCostOf(usage),
    ...(reasoning.trim() ? { reasoning } : {}),
  };
}

/** `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter) in a chunk's delta. */
function reasoningDelta(delta: unknown): string | undefined {
  const fields = (delta ?? {}) as { reasoning_content?: unknown; reasoning?: unknown };
  const text = typeof fields.reasoning_content === 'string' ? fields.reasoning_content : fields.reasoning;
  return typeof text === 'string' && text ? text : undefined;
}

/**
 * A stream that fails after its 200 reports the failure as an `error` chunk, which the client throws with no HTTP
 * status. The status is read from the error itself (OpenRouter puts it in a numeric `code`; OpenAI names the
 * condition), so the walk treats a 429 mid-stream as the 429 it is.
 */
function midStreamFailure(err: unknown, label: string): unknown {
  if (!(err instanceof OpenAI.APIError) || typeof err.status === 'number') return err;
  const error = (err.error ?? {}) as { code?: unknown; type?: unknown; message?: unknown };
  const named = `${String(error.code)} ${String(error.type)}`;
  const status =
    typeof error.code === 'number' && error.code >= 400
      ? error.code
      : /rate_limit|insufficient_quota|quota/i.test(named)
        ? 429
        : /invalid_api_key|authentication/i.test(named)
          ? 401
          : 500;
  return classifyHttpFailure('chat_compat', { status, body: { error } }, `${label} mid-stream`);
}
