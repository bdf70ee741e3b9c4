import { z } from 'zod';
import { startScriptedServer } from './scripted-server';
import type { CannedReply, ScriptedServer } from './scripted-server';

const toolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('developer'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({
    role: z.literal('assistant'),
    content: z.string().nullable().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
  }),
  z.object({ role: z.literal('tool'), content: z.string(), tool_call_id: z.string().min(1) }),
]);

const toolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** POST /v1/chat/completions as OpenAI documents it; other fields (reasoning_effort, reasoning, ...) pass through. */
export const chatCompletionRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(messageSchema).min(1),
  tools: z.array(toolSchema).optional(),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).optional(),
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

export interface FakeOpenAI extends ScriptedServer<ChatCompletionRequest> {
  /** Ends with `/v1`, as the catalog's chat_compat `base_url` does. */
  baseUrl: string;
}

/** A loopback server on the OpenAI chat completions wire; OpenRouter and other compatible vendors share it. */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const server = await startScriptedServer({
    route: '/v1/chat/completions',
    schema: chatCompletionRequestSchema,
    invalidRequest: (message) =>
      openAIReplies.error(400, openAIErrorBody(message, 'invalid_request_error', null, 'invalid_request_error')),
    unscripted: () => openAIReplies.error(500, openAIErrors.serverError()),
    // A whole completion scripted for a request that asked for a stream goes out streamed, as OpenAI would send it.
    streamed: (body, canned) => (body.stream && canned.status === 200 ? streamedCompletion(canned.body) : undefined),
  });
  return Object.assign(server, { baseUrl: `${server.origin}/v1` });
}

interface UsageOptions {
  promptTokens?: number;
  completionTokens?: number;
  reasoningTokens?: number;
}

interface CompletionOptions {
  model?: string;
  usage?: UsageOptions;
}

function completion(message: Record<string, unknown>, finishReason: string, options: CompletionOptions): unknown {
  const prompt = options.usage?.promptTokens ?? 12;
  const completionTokens = options.usage?.completionTokens ?? 7;
  return {
    id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
    object: 'chat.completion',
    created: 1_741_570_283,
    model: options.model ?? 'gpt-4.1-2025-04-14',
    choices: [
      {
        index: 0,
        message: { refusal: null, annotations: [], ...message },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completionTokens,
      total_tokens: prompt + completionTokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: {
        reasoning_tokens: options.usage?.reasoningTokens ?? 0,
        audio_tokens: 0,
        accepted_prediction_tokens: 0,
        rejected_prediction_tokens: 0,
      },
    },
    service_tier: 'default',
    system_fingerprint: 'fp_ee1d74bde0',
  };
}

/** A `chat.completion.chunk` with one choice carrying `delta`, or with none (the usage chunk). */
function chunk(
  model: string | undefined,
  delta: Record<string, unknown> | undefined,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
    object: 'chat.completion.chunk',
    created: 1_741_570_283,
    model: model ?? 'gpt-4.1-2025-04-14',
    service_tier: 'default',
    system_fingerprint: 'fp_ee1d74bde0',
    choices: delta ? [{ index: 0, delta, logprobs: null, finish_reason: null, ...extra }] : [],
    usage: null,
  });
}

/** The final chunk of a stream with `stream_options.include_usage`: no choices, the call's usage. */
function usageChunk(options: CompletionOptions): string {
  const body = completion({}, 'stop', options) as { usage: unknown; model: string };
  return JSON.stringify({ ...(JSON.parse(chunk(body.model, undefined)) as object), usage: body.usage });
}

/** What a streamed answer holds: the `delta`s of its chunks, in order, and how the stream ends. */
export interface StreamScript {
  /** Each entry is one chunk's `delta` (`{ content }`, `{ reasoning_content }`, `{ tool_calls: [...] }`). */
  deltas: Array<Record<string, unknown>>;
  finishReason?: 'stop' | 'tool_calls';
  usage?: UsageOptions;
  /**
   * `error`: after the deltas, an `error` event with this body's `error` (what OpenAI sends when a stream fails after
   * its 200, e.g. a rate limit) and the end of the response; `stall`: nothing more, the connection left open.
   */
  then?: { error: unknown } | 'stall';
}

/** The streamed form of a canned whole completion: content in words, tool arguments in pieces, usage last. */
function streamedCompletion(body: unknown): CannedReply {
  const { choices, usage, model } = body as {
    model: string;
    choices: Array<{
      message: {
        content?: string | null;
        tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
      };
      finish_reason: string;
    }>;
    usage: {
      prompt_tokens: number;
      completion_tokens: number;
      completion_tokens_details?: { reasoning_tokens?: number };
    };
  };
  const message = choices[0]!.message;
  const deltas: Array<Record<string, unknown>> = [{ role: 'assistant', content: message.content === null ? null : '' }];
  for (const word of message.content?.match(/\s*\S+\s*|\s+/g) ?? []) deltas.push({ content: word });
  (message.tool_calls ?? []).forEach((call, index) => {
    deltas.push({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
    });
    const args = call.function.arguments;
    for (let start = 0; start < args.length; start += 16) {
      deltas.push({ tool_calls: [{ index, function: { arguments: args.slice(start, start + 16) } }] });
    }
  });
  return openAIReplies.stream({
    deltas,
    finishReason: choices[0]!.finish_reason as 'stop' | 'tool_calls',
    usage: {
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      reasoningTokens: usage.completion_tokens_details?.reasoning_tokens,
    },
    model,
  });
}

/** Canned chat completion answers in OpenAI's response JSON. */
export const openAIReplies = {
  text(content: string, options: CompletionOptions = {}): CannedReply {
    return { status: 200, body: completion({ role: 'assistant', content }, 'stop', options) };
  },
  toolCalls(
    calls: Array<{ id: string; name: string; arguments: string }>,
    options: CompletionOptions = {},
  ): CannedReply {
    const toolCalls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
    return {
      status: 200,
      body: completion({ role: 'assistant', content: null, tool_calls: toolCalls }, 'tool_calls', options),
    };
  },
  error(status: number, body: unknown, headers?: Record<string, string>): CannedReply {
    return { status, body, headers };
  },
  /** A streamed answer (`stream: true`), chunk by chunk, with the usage chunk and `[DONE]` when it ends well. */
  stream(script: StreamScript & { model?: string }): CannedReply {
    const frames = script.deltas.map((delta) => chunk(script.model, delta));
    if (script.then === 'stall') return { status: 200, body: null, stream: { frames, then: 'stall' } };
    if (script.then) {
      frames.push(JSON.stringify({ error: (script.then.error as { error?: unknown }).error ?? script.then.error }));
      return { status: 200, body: null, stream: { frames } };
    }
    frames.push(chunk(script.model, {}, { finish_reason: script.finishReason ?? 'stop' }));
    frames.push(usageChunk({ usage: script.usage, model: script.model }));
    frames.push('[DONE]');
    return { status: 200, body: null, stream: { frames } };
  },
};

function openAIErrorBody(message: string, type: string, param: string | null, code: string | null) {
  return { error: { message, type, param, code } };
}

/** OpenAI's error bodies for the conditions the walk tells apart, as the API sends them. */
export const openAIErrors = {
  /** HTTP 429: the account has no credit left; retrying never helps. */
  insufficientQuota: () =>
    openAIErrorBody(
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
      'insufficient_quota',
      null,
      'insufficient_quota',
    ),
  /** HTTP 429: a real rate limit. */
  rateLimited: () =>
    openAIErrorBody(
      'Rate limit reached for gpt-4.1 in organization org-abc123 on tokens per min (TPM): Limit 30000, Used 29500, Requested 1200. Please try again in 1.4s. Visit https://platform.openai.com/account/rate-limits to learn more.',
      'tokens',
      null,
      'rate_limit_exceeded',
    ),
  /** HTTP 401. */
  invalidApiKey: () =>
    openAIErrorBody(
      'Incorrect API key provided: sk-proj-****abcd. You can find your API key at https://platform.openai.com/account/api-keys.',
      'invalid_request_error',
      null,
      'invalid_api_key',
    ),
  /** HTTP 403. */
  unsupportedRegion: () =>
    openAIErrorBody(
      'Country, region, or territory not supported',
      'request_forbidden',
      null,
      'unsupported_country_region_territory',
    ),
  /** HTTP 404. */
  modelNotFound: (model: string) =>
    openAIErrorBody(
      `The model \`${model}\` does not exist or you do not have access to it.`,
      'invalid_request_error',
      null,
      'model_not_found',
    ),
  /** HTTP 500. */
  serverError: () =>
    openAIErrorBody(
      'The server had an error while processing your request. Sorry about that!',
      'server_error',
      null,
      null,
    ),
};

/** OpenRouter's error bodies (same wire, its own envelope: a numeric code). */
export const openRouterErrors = {
  /** HTTP 402: the OpenRouter account is out of credits. */
  insufficientCredits: () => ({
    error: {
      code: 402,
      message:
        'This request requires more credits, or fewer max_tokens. You requested up to 16384 tokens, but can only afford 1873. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account',
      metadata: { provider_name: null },
    },
    user_id: 'user_2yZ8Qw1aBcD',
  }),
};
