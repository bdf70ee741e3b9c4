import { z } from 'zod';

/**
 * The slice of the OpenAI chat-completions wire the demo model understands. Fields the demo has no use for
 * (temperature, max_tokens, n, ...) are accepted and dropped, so any well-formed client request parses.
 */

const contentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
const contentSchema = z.union([z.string(), z.array(contentPartSchema)]);

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: contentSchema, name: z.string().optional() }),
  z.object({ role: z.literal('developer'), content: contentSchema, name: z.string().optional() }),
  z.object({ role: z.literal('user'), content: contentSchema, name: z.string().optional() }),
  z.object({
    role: z.literal('assistant'),
    content: contentSchema.nullish(),
    name: z.string().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
  }),
  z.object({ role: z.literal('tool'), content: contentSchema, tool_call_id: z.string() }),
]);

const functionToolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

const toolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
]);

export const chatCompletionRequestSchema = z.object({
  model: z.string().min(1),
  messages: z.array(chatMessageSchema).min(1),
  tools: z.array(functionToolSchema).optional(),
  tool_choice: toolChoiceSchema.optional(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
});

export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ChatContent = z.infer<typeof contentSchema>;
export type FunctionTool = z.infer<typeof functionToolSchema>;
export type ToolCall = z.infer<typeof toolCallSchema>;
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

/** What the demo model needs from a request; the rest of the wire (model, stream) is the server's business. */
export type DemoRequest = Pick<ChatCompletionRequest, 'messages' | 'tools' | 'tool_choice'>;

export type FinishReason = 'stop' | 'tool_calls';

export interface AssistantMessage {
  role: 'assistant';
  /** Null when the reply is only tool calls, as on the real wire. */
  content: string | null;
  tool_calls?: ToolCall[];
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** What the call cost in USD, as OpenRouter reports it on this wire; only with the `#cost=<usd>` directive. */
  cost?: number;
}

export interface DemoReply {
  message: AssistantMessage;
  finish_reason: FinishReason;
  usage: Usage;
}
