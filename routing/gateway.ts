import OpenAI from 'openai';
import type { ChatMessage, ModelReply, ModelRoute, ToolCall, ToolDefinition } from './chat-types';
import type { ProviderEndpoint } from './config';

/** Statuses that retrying the same request cannot fix. */
const REFUSALS = [400, 401, 403, 404, 422];

/** Raised for a refusal that retrying cannot fix (bad key, malformed request); the activity marks it non-retryable. */
export class ModelRequestRejected extends Error {
  override name = 'ModelRequestRejected';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface ModelListing {
  provider: string;
  model: string;
  display_name: string;
  wire: 'chat_compat';
  cost_tier: string;
  configured: boolean;
  allowed: boolean;
}

/** The one module every LLM call in Keel goes through. */
export interface ModelGateway {
  route(role: string, modelTier?: string): ModelRoute;
  call(route: ModelRoute, messages: ChatMessage[], tools?: ToolDefinition[], signal?: AbortSignal): Promise<ModelReply>;
  list(): ModelListing[];
}

/**
 * First-cut routing: every level goes to the single configured endpoint (the offline demo model when
 * none is configured). The routing issue replaces `route` with the catalog's candidate walk; the call
 * path (chat_compat wire through the official OpenAI client, its own retries off because Temporal's
 * activity retries own them) stays.
 */
export function createModelGateway(endpoint: ProviderEndpoint): ModelGateway {
  const client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey, maxRetries: 0, timeout: 120_000 });
  return {
    route(_role, _modelTier) {
      return {
        provider: endpoint.provider,
        model: endpoint.model,
        displayName: endpoint.displayName,
        tier: endpoint.tier,
        candidates: [{ provider: endpoint.provider, model: endpoint.model }],
      };
    },
    async call(route, messages, tools, signal) {
      try {
        const completion = await client.chat.completions.create(
          {
            model: route.model,
            messages: messages as OpenAI.Chat.ChatCompletionMessageParam[],
            ...(tools ? { tools: tools } : {}),
          },
          { signal },
        );
        const message = completion.choices[0]?.message;
        const toolCalls: ToolCall[] = (message?.tool_calls ?? [])
          .filter((call) => call.type === 'function')
          .map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: call.function.arguments },
          }));
        return {
          provider: route.provider,
          model: completion.model || route.model,
          content: message?.content ?? null,
          toolCalls,
          usage: {
            promptTokens: completion.usage?.prompt_tokens ?? 0,
            completionTokens: completion.usage?.completion_tokens ?? 0,
          },
          // Prices arrive with the model catalog; the demo model and the interim endpoint cost nothing known.
          costUsd: 0,
        };
      } catch (err) {
        if (err instanceof OpenAI.APIError && typeof err.status === 'number' && REFUSALS.includes(err.status)) {
          const status: number = err.status;
          throw new ModelRequestRejected(
            `${route.provider}/${route.model} refused the request (${status}): ${err.message}`,
            status,
          );
        }
        throw err;
      }
    },
    list: () => listModels(endpoint),
  };
}

/** The GET /v1/models rows for an endpoint (the routing issue widens this to the whole catalog). */
export function listModels(endpoint: ProviderEndpoint): ModelListing[] {
  return [
    {
      provider: endpoint.provider,
      model: endpoint.model,
      display_name: endpoint.displayName,
      wire: 'chat_compat',
      cost_tier: endpoint.tier,
      configured: true,
      allowed: true,
    },
  ];
}
