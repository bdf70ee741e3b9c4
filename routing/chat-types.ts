/** The chat_compat (OpenAI-style chat completions) message shapes Keel passes between workflow and activities. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

/** Where a level's call goes. Names only: keys and URLs stay in the worker, never in workflow history. */
export interface ModelRoute {
  provider: string;
  model: string;
  /** What people see, e.g. "offline demo model". */
  displayName: string;
  tier: string;
  candidates: Array<{ provider: string; model: string }>;
}

export interface ModelReply {
  /** The provider and model that actually answered. */
  provider: string;
  model: string;
  content: string | null;
  toolCalls: ToolCall[];
  usage: { promptTokens: number; completionTokens: number };
  costUsd: number;
}
