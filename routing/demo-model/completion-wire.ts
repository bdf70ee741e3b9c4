import { createHash } from 'node:crypto';
import type { ChatMessage, DemoReply, FinishReason, ToolCall, Usage } from './chat-wire';

/**
 * Turns a demo reply into the response bodies of the OpenAI wire: one `chat.completion` object, or the
 * `chat.completion.chunk` sequence of a streamed answer. Chunk boundaries are deterministic so streamed
 * answers reassemble to exactly the non-streamed one.
 */

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: DemoReply['message'];
    logprobs: null;
    finish_reason: FinishReason;
  }>;
  usage: Usage;
}

interface ChunkToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments: string };
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    delta: { role?: 'assistant'; content?: string | null; tool_calls?: ChunkToolCallDelta[] };
    logprobs: null;
    finish_reason: FinishReason | null;
  }>;
  usage?: Usage | null;
}

const ARGUMENT_PIECE = 24;

/**
 * A deterministic completion id: `chatcmpl-` + 24 hex digits of SHA-256 over the model and the messages.
 * Equal requests share an id, as the demo is deterministic; callers must not rely on it being unique.
 */
export function completionId(model: string, messages: readonly ChatMessage[]): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([model, messages]))
    .digest('hex');
  return `chatcmpl-${digest.slice(0, 24)}`;
}

/** The non-streamed response body. `created` is in seconds since the epoch. */
export function toCompletion(reply: DemoReply, meta: { id: string; model: string; created: number }): ChatCompletion {
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message: reply.message, logprobs: null, finish_reason: reply.finish_reason }],
    usage: reply.usage,
  };
}

/**
 * The streamed response bodies, in order: a role chunk, content pieces (word by word), tool call deltas (id and
 * name first, then arguments in pieces), a finish chunk, and, when `includeUsage`, a usage chunk with no choices.
 * The caller frames each as `data: <json>` and ends the stream with `data: [DONE]`.
 */
export function toChunks(
  reply: DemoReply,
  meta: { id: string; model: string; created: number; includeUsage: boolean },
): ChatCompletionChunk[] {
  const chunk = (
    delta: ChatCompletionChunk['choices'][number]['delta'],
    finishReason: FinishReason | null = null,
  ): ChatCompletionChunk => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(meta.includeUsage ? { usage: null } : {}),
  });

  const { content, tool_calls: toolCalls = [] } = reply.message;
  const chunks = [chunk({ role: 'assistant', content: content === null ? null : '' })];
  for (const piece of content?.match(/\s*\S+\s*|\s+/g) ?? []) chunks.push(chunk({ content: piece }));
  toolCalls.forEach((call, index) => chunks.push(...toolCallChunks(call, index, chunk)));
  chunks.push(chunk({}, reply.finish_reason));
  if (meta.includeUsage) {
    chunks.push({
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      choices: [],
      usage: reply.usage,
    });
  }
  return chunks;
}

function toolCallChunks(
  call: ToolCall,
  index: number,
  chunk: (delta: ChatCompletionChunk['choices'][number]['delta']) => ChatCompletionChunk,
): ChatCompletionChunk[] {
  const head = chunk({
    tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
  });
  // Code points, not UTF-16 units, so no piece carries half a surrogate pair.
  const chars = Array.from(call.function.arguments);
  const pieces: ChatCompletionChunk[] = [];
  for (let start = 0; start < chars.length; start += ARGUMENT_PIECE) {
    const piece = chars.slice(start, start + ARGUMENT_PIECE).join('');
    pieces.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  return [head, ...pieces];
}
