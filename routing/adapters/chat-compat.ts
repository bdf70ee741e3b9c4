import OpenAI from 'openai';
import type { ToolCall } from '../chat-types';
import { classifyThrown } from './classify';
import { CALL_TIMEOUT_MS, clientCache } from './client-cache';
import { streamChatCompat } from './chat-compat-stream';
import { reportedCostOf } from './reported-cost';
import type { AdapterReply, AdapterRequest, WireAdapter } from './types';

const clientFor = clientCache(
  (baseURL, apiKey) =>
    new OpenAI({
      baseURL,
      // Local servers take no key, but the client refuses to start without one.
      apiKey: apiKey ?? 'none',
      // The walk owns retries: a retry here would hide a 429 or 5xx from it and double the wait.
      maxRetries: 0,
      timeout: CALL_TIMEOUT_MS,
      // Never send the worker's OPENAI_ORG_ID / OPENAI_PROJECT_ID to OpenRouter or a local server.
      organization: null,
      project: null,
    }),
);

/**
 * The OpenAI chat completions wire (OpenAI, OpenRouter and every compatible server). Keel's messages and tools
 * already have this shape, so they go out as they are.
 */
export const chatCompatAdapter: WireAdapter = {
  async call(request: AdapterRequest): Promise<AdapterReply> {
    if (request.onPiece) return streamChatCompat(clientFor(request.provider.base_url, request.apiKey), request);
    const client = clientFor(request.provider.base_url, request.apiKey);
    const body = {
      model: request.model.model,
      messages: request.messages as OpenAI.Chat.ChatCompletionMessageParam[],
      ...(request.tools?.length ? { tools: request.tools } : {}),
      ...request.effortFragment,
    } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;

    let completion: OpenAI.Chat.ChatCompletion;
    try {
      completion = await client.chat.completions.create(body, { signal: request.signal });
    } catch (err) {
      throw classifyThrown(err, {
        wire: 'chat_compat',
        providerName: request.providerName,
        model: request.model.model,
        signal: request.signal,
      });
    }

    const message = completion.choices[0]?.message;
    const toolCalls: ToolCall[] = (message?.tool_calls ?? []).flatMap((call) =>
      call.type === 'function'
        ? [
            {
              id: call.id,
              type: 'function',
              function: { name: call.function.name, arguments: call.function.arguments },
            },
          ]
        : [],
    );
    return {
      model: completion.model || request.model.model,
      content: message?.content ?? null,
      toolCalls,
      usage: {
        // prompt_tokens includes the cached ones (prompt_tokens_details.cached_tokens).
        inputTokens: completion.usage?.prompt_tokens ?? 0,
        cachedInputTokens: completion.usage?.prompt_tokens_details?.cached_tokens ?? 0,
        // Includes the reasoning tokens, as OpenAI bills them.
        outputTokens: completion.usage?.completion_tokens ?? 0,
        reasoningTokens: completion.usage?.completion_tokens_details?.reasoning_tokens ?? 0,
      },
      ...reportedCostOf(completion.usage),
      ...(reasoningOf(message) ? { reasoning: reasoningOf(message) } : {}),
    };
  },
};

/**
 * OpenAI's own chat completions return no reasoning text; compatible servers do, as `reasoning_content`
 * (DeepSeek, vLLM) or `reasoning` (OpenRouter).
 */
export function reasoningOf(message: unknown): string | undefined {
  const fields = (message ?? {}) as { reasoning_content?: unknown; reasoning?: unknown };
  const text = typeof fields.reasoning_content === 'string' ? fields.reasoning_content : fields.reasoning;
  return typeof text === 'string' && text.trim() ? text : undefined;
}
