import { z } from 'zod';
import type { PromptCache } from '../../bench/prompt-cache';
import { startScriptedServer } from './scripted-server';
import type { CannedReply, ScriptedServer } from './scripted-server';

/** A prompt-caching breakpoint; the API takes it on tools, system blocks and message content blocks. */
const cacheControlSchema = z.strictObject({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });
const textBlockSchema = z.object({
  type: z.literal('text'),
  text: z.string().min(1),
  cache_control: cacheControlSchema.optional(),
});
const toolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  cache_control: cacheControlSchema.optional(),
});
const toolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(textBlockSchema)]).optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControlSchema.optional(),
});
const blockSchema = z.discriminatedUnion('type', [textBlockSchema, toolUseBlockSchema, toolResultBlockSchema]);

const messageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string().min(1), z.array(blockSchema).min(1)]),
});

const thinkingSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }),
  z.object({ type: z.literal('disabled') }),
  z.object({ type: z.literal('adaptive') }),
]);

type Message = z.infer<typeof messageSchema>;
type Block = z.infer<typeof blockSchema>;

const blocksOf = (message: Message | undefined): Block[] =>
  message === undefined || typeof message.content === 'string' ? [] : message.content;

/** POST /v1/messages as Anthropic documents it, with the API's own cross-field rules; unknown fields pass through. */
export const messagesRequestSchema = z
  .looseObject({
    model: z.string().min(1),
    max_tokens: z.number().int().positive(),
    system: z.union([z.string(), z.array(textBlockSchema)]).optional(),
    messages: z.array(messageSchema).min(1),
    tools: z
      .array(
        z.object({
          name: z.string().min(1),
          description: z.string().optional(),
          input_schema: z.looseObject({ type: z.literal('object') }),
          cache_control: cacheControlSchema.optional(),
        }),
      )
      .optional(),
    thinking: thinkingSchema.optional(),
  })
  .superRefine((body, ctx) => {
    // The API's limit on breakpoints per request.
    const marks = JSON.stringify(body).split('"cache_control":').length - 1;
    if (marks > 4) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `A maximum of 4 blocks with cache_control may be provided. Found ${marks}.`,
      });
    }
    if (body.thinking?.type === 'enabled' && body.thinking.budget_tokens >= body.max_tokens) {
      ctx.addIssue({
        code: 'custom',
        path: ['max_tokens'],
        message: 'max_tokens must be greater than thinking.budget_tokens',
      });
    }
    body.messages.forEach((message, index) => {
      const toolUses = message.role === 'assistant' ? blocksOf(message).filter((b) => b.type === 'tool_use') : [];
      if (toolUses.length === 0) return;
      // The API's rule: every tool_use is answered by a tool_result in the very next (user) message.
      const answered = new Set(
        blocksOf(body.messages[index + 1]).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])),
      );
      const missing = toolUses.filter((b) => b.type === 'tool_use' && !answered.has(b.id));
      if (missing.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['messages', index],
          message: `tool_use ids were found without tool_result blocks immediately after: ${missing.map((b) => (b.type === 'tool_use' ? b.id : '')).join(', ')}`,
        });
      }
    });
    body.messages.forEach((message, index) => {
      const blocks = blocksOf(message);
      const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
      if (firstOther >= 0 && blocks.slice(firstOther).some((b) => b.type === 'tool_result')) {
        ctx.addIssue({
          code: 'custom',
          path: ['messages', index, 'content'],
          message: 'tool_result blocks must come before any other content in a user message',
        });
      }
    });
  });
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;

export interface FakeAnthropic extends ScriptedServer<MessagesRequest> {
  /** The API origin, as the catalog's vendor_a `base_url` is (the client appends `/v1/messages`). */
  baseUrl: string;
}

/** A loopback server on the Anthropic Messages wire. */
export async function startFakeAnthropic(): Promise<FakeAnthropic> {
  const server = await startScriptedServer({
    route: '/v1/messages',
    schema: messagesRequestSchema,
    invalidRequest: (message) => anthropicReplies.error(400, anthropicErrorBody('invalid_request_error', message)),
    unscripted: () => anthropicReplies.error(500, anthropicErrors.apiError()),
    // A whole message scripted for a request that asked for a stream goes out as Anthropic streams it.
    streamed: (body, canned) =>
      body.stream === true && canned.status === 200 ? streamedMessage(canned.body as StreamedMessage) : undefined,
  });
  return Object.assign(server, { baseUrl: server.origin });
}

export type ResponseBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

interface MessageOptions {
  model?: string;
  usage?: { inputTokens?: number; outputTokens?: number; cacheReadTokens?: number; cacheWriteTokens?: number };
}

function message(content: ResponseBlock[], stopReason: string, options: MessageOptions): unknown {
  return {
    id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
    type: 'message',
    role: 'assistant',
    model: options.model ?? 'claude-sonnet-4-6',
    content: content.map((block) =>
      block.type === 'thinking'
        ? { signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds', ...block }
        : block,
    ),
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: options.usage?.inputTokens ?? 21,
      cache_creation_input_tokens: options.usage?.cacheWriteTokens ?? 0,
      cache_read_input_tokens: options.usage?.cacheReadTokens ?? 0,
      output_tokens: options.usage?.outputTokens ?? 9,
      service_tier: 'standard',
    },
  };
}

interface StreamedMessage {
  model: string;
  content: ResponseBlock[];
  stop_reason: string;
  usage: { input_tokens: number; output_tokens: number };
}

/** One event of Anthropic's Messages stream, framed as the API frames it (`event:` and `data:`). */
function streamEvent(type: string, fields: Record<string, unknown>): { event: string; data: string } {
  return { event: type, data: JSON.stringify({ type, ...fields }) };
}

/**
 * The Messages stream of a whole message: message_start (input usage), each block started, its text, thinking or
 * tool input in pieces (`text_delta`, `thinking_delta`, `input_json_delta`), stopped, then message_delta with the
 * output usage and message_stop. `then` ends it early: an `error` event, or silence.
 */
function streamedMessage(message: StreamedMessage, then?: { error: unknown } | 'stall', cut?: number): CannedReply {
  const frames: Array<{ event: string; data: string }> = [
    streamEvent('message_start', {
      message: {
        id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
        type: 'message',
        role: 'assistant',
        model: message.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...message.usage, output_tokens: 1 },
      },
    }),
  ];
  message.content.forEach((block, index) => {
    const pieces = (text: string) => text.match(/[\s\S]{1,12}/g) ?? [];
    if (block.type === 'text') {
      frames.push(streamEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const text of pieces(block.text))
        frames.push(streamEvent('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    } else if (block.type === 'thinking') {
      frames.push(
        streamEvent('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      );
      for (const thinking of pieces(block.thinking))
        frames.push(streamEvent('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } }));
      frames.push(streamEvent('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'EqQB' } }));
    } else if (block.type === 'tool_use') {
      frames.push(
        streamEvent('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      for (const partial_json of pieces(JSON.stringify(block.input)))
        frames.push(streamEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }));
    } else {
      frames.push(streamEvent('content_block_start', { index, content_block: block }));
    }
    frames.push(streamEvent('content_block_stop', { index }));
  });
  frames.push(
    streamEvent('message_delta', {
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens },
    }),
    streamEvent('message_stop', {}),
  );
  if (!then) return { status: 200, body: null, stream: { frames } };
  const kept = frames.slice(0, cut ?? frames.length - 2);
  if (then === 'stall') return { status: 200, body: null, stream: { frames: kept, then: 'stall' } };
  kept.push({ event: 'error', data: JSON.stringify(then.error) });
  return { status: 200, body: null, stream: { frames: kept } };
}

/** Canned Messages answers in Anthropic's response JSON. */
export const anthropicReplies = {
  text(text: string, options: MessageOptions = {}): CannedReply {
    return { status: 200, body: message([{ type: 'text', text }], 'end_turn', options) };
  },
  /** Any mix of blocks; `tool_use` among them makes the stop reason `tool_use`. */
  blocks(content: ResponseBlock[], options: MessageOptions = {}): CannedReply {
    const stopReason = content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
    return { status: 200, body: message(content, stopReason, options) };
  },
  /**
   * `reply` with its input usage counted from the request by `cache` (bench/prompt-cache.ts): a prefix marked with
   * cache_control that an earlier request through the same cache wrote comes back as cache_read_input_tokens.
   */
  counted(cache: PromptCache, reply: CannedReply): CannedReply {
    return {
      status: 200,
      body: null,
      respond: (body) => {
        const usage = cache.usage(body as Record<string, unknown>);
        const canned = reply.body as { usage: Record<string, unknown> };
        return { ...reply, body: { ...canned, usage: { ...canned.usage, ...usage } } };
      },
    };
  },
  error(status: number, body: unknown, headers?: Record<string, string>): CannedReply {
    return { status, body, headers: { 'request-id': 'req_011CSHoEeqs5C35K2UUqR7Fy', ...headers } };
  },
  /**
   * A streamed answer of these blocks that breaks off after its first `cut` events (3 by default: the start, a block
   * start and its first piece) with an `error` event (`then.error`, an error envelope) or with silence.
   */
  brokenStream(content: ResponseBlock[], then: { error: unknown } | 'stall', cut = 3): CannedReply {
    const body = message(content, 'end_turn', {}) as StreamedMessage;
    return streamedMessage(body, then, cut);
  },
};

function anthropicErrorBody(type: string, message: string) {
  return { type: 'error', error: { type, message }, request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy' };
}

/** Anthropic's error envelopes for the conditions the walk tells apart, as the API sends them. */
export const anthropicErrors = {
  /** HTTP 400: the organisation has no prepaid credit left. */
  creditBalanceTooLow: () =>
    anthropicErrorBody(
      'invalid_request_error',
      'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    ),
  /** HTTP 401. */
  invalidApiKey: () => anthropicErrorBody('authentication_error', 'invalid x-api-key'),
  /** HTTP 403. */
  permissionDenied: () =>
    anthropicErrorBody('permission_error', 'Your API key does not have permission to use the specified resource.'),
  /** HTTP 404. */
  modelNotFound: (model: string) => anthropicErrorBody('not_found_error', `model: ${model}`),
  /** HTTP 400: an ordinary malformed request. */
  invalidRequest: (message: string) => anthropicErrorBody('invalid_request_error', message),
  /** HTTP 429, sent with a `retry-after` header. */
  rateLimited: () =>
    anthropicErrorBody(
      'rate_limit_error',
      'This request would exceed the rate limit for your organization (1a2b3c4d-0000-4000-8000-1234567890ab) of 30,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later. You may also contact sales at https://www.anthropic.com/contact-sales to discuss your options for a rate limit increase.',
    ),
  /** HTTP 500. */
  apiError: () => anthropicErrorBody('api_error', 'Internal server error'),
  /** HTTP 529. */
  overloaded: () => anthropicErrorBody('overloaded_error', 'Overloaded'),
};
