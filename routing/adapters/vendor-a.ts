import Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, ToolCall, ToolDefinition } from '../chat-types';
import { parseToolArguments } from '../../pure/tool-arguments';
import { classifyThrown } from './classify';
import { CALL_TIMEOUT_MS, clientCache } from './client-cache';
import type { AdapterReply, AdapterRequest, WireAdapter } from './types';
import { streamVendorA } from './vendor-a-stream';

const clientFor = clientCache(
  (baseURL, apiKey) =>
    new Anthropic({
      baseURL,
      // A key passed here also stops the client from looking for env variables or a profile on disk.
      apiKey: apiKey ?? 'none',
      // The walk owns retries: a retry here would hide a 429 or 5xx from it and double the wait.
      maxRetries: 0,
      // An explicit timeout; without one the client refuses non-streaming calls with a large max_tokens.
      timeout: CALL_TIMEOUT_MS,
    }),
);

/** The Anthropic Messages wire. Keel's chat_compat messages are translated on the way out and back. */
export const vendorAAdapter: WireAdapter = {
  async call(request: AdapterRequest): Promise<AdapterReply> {
    const client = clientFor(request.provider.base_url, request.apiKey);
    const system = request.messages
      .filter((message) => message.role === 'system' && message.content)
      .map((message) => message.content)
      .join('\n\n');
    const tools = request.tools?.map(toAnthropicTool);
    const body = {
      model: request.model.model,
      max_tokens: request.model.max_output_tokens,
      ...(system ? { system: [{ type: 'text', text: system, cache_control: EPHEMERAL }] } : {}),
      messages: markConversation(toAnthropicMessages(request.messages)),
      ...(tools?.length ? { tools: tools.map((tool, i) => (i === tools.length - 1 ? cached(tool) : tool)) } : {}),
      ...request.effortFragment,
    } as Anthropic.MessageCreateParamsNonStreaming;
    if (request.onPiece) return fromAnthropicMessage(await streamVendorA(client, body, request), request.model.model);

    let message: Anthropic.Message;
    try {
      message = await client.messages.create(body, { signal: request.signal });
    } catch (err) {
      throw classifyThrown(err, {
        wire: 'vendor_a',
        providerName: request.providerName,
        model: request.model.model,
        signal: request.signal,
      });
    }
    return fromAnthropicMessage(message, request.model.model);
  },
};

const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

function cached<T extends object>(block: T): T & { cache_control: Anthropic.CacheControlEphemeral } {
  return { ...block, cache_control: EPHEMERAL };
}

/**
 * Prompt caching (docs/models.md): the API caches the prefix up to each `cache_control` breakpoint, in the order tools,
 * system, messages, and allows four. Besides the last tool and the system block, two go on the conversation: the end of
 * the level's opening user message (its brief: the same on every round of the level's tool loop) and the end of the
 * newest message, so the next round reads everything up to it from the cache and pays full price only for what it
 * adds. A prefix shorter than the model's minimum (1,024 tokens and up) is simply not cached.
 */
function markConversation(messages: Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  const marks = new Set([messages.findIndex((m) => m.role === 'user'), messages.length - 1]);
  return messages.map((message, index) => {
    if (!marks.has(index)) return message;
    const blocks: Anthropic.ContentBlockParam[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
    const last = blocks.at(-1);
    // Thinking blocks take no cache_control; the breakpoint then stays off this message.
    if (!last || last.type === 'thinking' || last.type === 'redacted_thinking') return message;
    blocks[blocks.length - 1] = cached(last);
    return { ...message, content: blocks } as Anthropic.MessageParam;
  });
}

/**
 * System messages leave the list (they go to `system`); assistant tool calls become `tool_use` blocks; tool
 * results become `tool_result` blocks in a user turn, consecutive ones merged because the API wants every
 * result of one assistant turn in the single user message that follows it.
 */
function toAnthropicMessages(messages: ChatMessage[]): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        if (message.content) out.push({ role: 'user', content: message.content });
        break;
      case 'assistant': {
        const blocks: Anthropic.ContentBlockParam[] = [];
        if (message.content) blocks.push({ type: 'text', text: message.content });
        for (const call of message.tool_calls ?? []) {
          blocks.push({
            type: 'tool_use',
            id: call.id,
            name: call.function.name,
            input: parseToolArguments(call.function.arguments),
          });
        }
        // The API refuses an empty assistant turn; a turn that said nothing carries nothing to keep.
        if (blocks.length > 0) out.push({ role: 'assistant', content: blocks });
        break;
      }
      case 'tool': {
        const result: Anthropic.ToolResultBlockParam = {
          type: 'tool_result',
          tool_use_id: message.tool_call_id ?? '',
          content: message.content ?? '',
        };
        const previous = out.at(-1);
        if (previous?.role === 'user' && Array.isArray(previous.content) && previous.content.every(isToolResult)) {
          previous.content.push(result);
        } else {
          out.push({ role: 'user', content: [result] });
        }
        break;
      }
    }
  }
  return out;
}

function isToolResult(block: Anthropic.ContentBlockParam): boolean {
  return block.type === 'tool_result';
}

function toAnthropicTool(tool: ToolDefinition): Anthropic.Tool {
  return {
    name: tool.function.name,
    ...(tool.function.description ? { description: tool.function.description } : {}),
    input_schema: tool.function.parameters as Anthropic.Tool.InputSchema,
  };
}

function fromAnthropicMessage(message: Anthropic.Message, requestedModel: string): AdapterReply {
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  let visibleChars = 0;
  let thought = false;
  const thinking: string[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      texts.push(block.text);
      visibleChars += block.text.length;
    } else if (block.type === 'tool_use') {
      const args = JSON.stringify(block.input ?? {});
      toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: args } });
      visibleChars += block.name.length + args.length;
    } else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      thought = true;
      if (block.type === 'thinking' && block.thinking) thinking.push(block.thinking);
    }
  }
  const outputTokens = message.usage.output_tokens;
  return {
    model: message.model || requestedModel,
    content: texts.length > 0 ? texts.join('') : null,
    toolCalls,
    // Anthropic's input_tokens counts only the input after the last cache breakpoint; the cache reads and writes are
    // reported apart, and all three are input.
    usage: {
      inputTokens:
        message.usage.input_tokens +
        (message.usage.cache_read_input_tokens ?? 0) +
        (message.usage.cache_creation_input_tokens ?? 0),
      cachedInputTokens: message.usage.cache_read_input_tokens ?? 0,
      cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
      outputTokens,
      reasoningTokens: thought ? estimateThinkingTokens(outputTokens, visibleChars) : 0,
    },
    ...(thinking.length > 0 ? { reasoning: thinking.join('\n') } : {}),
  };
}

// A rough characters-per-token ratio for English text and JSON; only used to split a known total.
const CHARS_PER_TOKEN = 4;

/**
 * Anthropic reports no thinking-token count: `output_tokens` is thinking plus visible output. The thinking
 * blocks are no measure either, because Claude 4 models return a summary of their thinking (or redact it)
 * while billing the full thinking. So the estimate is the billed output minus an estimate of the visible
 * part (text and tool input at ~4 characters a token), clamped to [0, output_tokens]; 0 when no thinking
 * block came back, i.e. thinking was off.
 */
function estimateThinkingTokens(outputTokens: number, visibleChars: number): number {
  const visibleTokens = Math.ceil(visibleChars / CHARS_PER_TOKEN);
  return Math.min(outputTokens, Math.max(0, outputTokens - visibleTokens));
}
