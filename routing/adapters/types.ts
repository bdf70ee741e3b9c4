import type { ModelRow, ProviderEntry } from '../catalog/types';
import type { ChatMessage, ToolCall, ToolDefinition } from '../chat-types';

/** One model call on one wire. Messages and tools are in Keel's chat_compat shape; each adapter translates. */
export interface AdapterRequest {
  providerName: string;
  provider: ProviderEntry;
  model: ModelRow;
  /** Resolved credential; undefined for providers without auth. */
  apiKey?: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  /** The model's `effort[rung]` fragment, merged into the vendor request body as given. */
  effortFragment?: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * When set, the call streams: each piece of output goes here as it arrives (the reply is still the whole answer,
   * usage from the stream's end). Without it the call is one request and one answer.
   */
  onPiece?: (piece: OutputPiece) => void;
  /** A stream that sends nothing for this long fails as unavailable (default STREAM_STALL_MS). */
  stallMs?: number;
}

/** One piece of streamed output, as an adapter reads it off the wire. */
export interface OutputPiece {
  kind: 'text' | 'reasoning' | 'tool_arguments';
  text: string;
  /** For tool arguments: which tool call of the reply (0-based), and its name when this piece is the first to know it. */
  toolCallIndex?: number;
  toolName?: string;
}

export interface AdapterReply {
  /** The model id the vendor says answered. */
  model: string;
  content: string | null;
  /** In Keel's chat_compat shape; adapters synthesize stable ids where a wire has none. */
  toolCalls: ToolCall[];
  /**
   * `inputTokens` is every input token of the call, cached or not, on every wire. Of those, `cachedInputTokens` were
   * read from the vendor's prompt cache and `cacheWriteTokens` written to it (only Anthropic reports writes).
   */
  usage: {
    inputTokens: number;
    outputTokens: number;
    reasoningTokens: number;
    cachedInputTokens?: number;
    cacheWriteTokens?: number;
  };
  /** What the vendor says the call cost in USD, where its wire reports it (OpenRouter's `usage.cost`). */
  reportedCostUsd?: number;
  /** The vendor's reasoning summary, where it returns one (Anthropic thinking blocks, Gemini thoughts, reasoning_content). */
  reasoning?: string;
}

export interface WireAdapter {
  call(request: AdapterRequest): Promise<AdapterReply>;
}

/**
 * Why a call failed, as the walk needs to know it. Adapters classify from the status AND the response
 * body, because vendors report the same condition differently.
 */
export type FailureKind =
  /** 401/403: the provider is dead for the rest of this call. */
  | 'auth'
  /** The account has no funds (OpenAI insufficient_quota, Anthropic credit balance, Gemini zero free limit, OpenRouter 402). */
  | 'unfunded'
  /** 429 rate limiting: cool the model down (Retry-After honoured). */
  | 'rate_limited'
  /** The request itself is wrong (400/404/422 that are not the above); another model may still take it. */
  | 'bad_request'
  /** 5xx, timeouts, connection errors: transient. */
  | 'unavailable';

export class ProviderCallError extends Error {
  override name = 'ProviderCallError';
  constructor(
    message: string,
    readonly kind: FailureKind,
    readonly status?: number,
    /** From Retry-After (seconds or HTTP date) when the vendor sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
