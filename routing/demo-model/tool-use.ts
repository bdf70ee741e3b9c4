import { createHash } from 'node:crypto';
import type { AssistantMessage, ChatMessage, DemoRequest, FinishReason, ToolCall } from './chat-wire';
import { lastUserIndex, textOf } from './prompt-contract';

/**
 * How the demo model uses function tools: which tools a request lets it call, how its calls are built, and
 * which of its calls the conversation has answered. Only the turn after the last user message counts, because
 * Keel starts each level from a fresh user message and earlier tool traffic belongs to another request.
 */

/** The deterministic id of a tool call: `call_` + the first 16 hex digits of SHA-256(`<name>:<arguments>`). */
export function toolCallId(name: string, args: string): string {
  return `call_${createHash('sha256').update(`${name}:${args}`).digest('hex').slice(0, 16)}`;
}

/** True when `tools` offers a function named `name` and `tool_choice` allows it (not `none`, not another function). */
export function offersTool(request: DemoRequest, name: string): boolean {
  const choice = request.tool_choice;
  if (choice === 'none' || (typeof choice === 'object' && choice.function.name !== name)) return false;
  return (request.tools ?? []).some((tool) => tool.type === 'function' && tool.function.name === name);
}

/** A call to `name` with a deterministic id, its arguments serialised in the key order given. */
export function toolCall(name: string, args: Record<string, string>): ToolCall {
  const json = JSON.stringify(args);
  return { id: toolCallId(name, json), type: 'function', function: { name, arguments: json } };
}

/** A reply made of one tool call, as the wire shapes it: no content, finish `tool_calls`. */
export function callReply(call: ToolCall): { message: AssistantMessage; finish_reason: FinishReason } {
  return { message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' };
}

/** A reply made of several tool calls in one turn, run in order. */
export function callsReply(calls: ToolCall[]): { message: AssistantMessage; finish_reason: FinishReason } {
  return { message: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: 'tool_calls' };
}

/**
 * The text of the last tool result answering a call to `name` made after the last user message; undefined while
 * no such call has been answered.
 */
export function toolAnswer(messages: readonly ChatMessage[], name: string): string | undefined {
  const turn = turnAfterUser(messages);
  const callIds = new Set<string>();
  for (const message of turn) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) if (call.function.name === name) callIds.add(call.id);
  }
  let answer: string | undefined;
  for (const message of turn) {
    if (message.role === 'tool' && callIds.has(message.tool_call_id)) answer = textOf(message.content);
  }
  return answer;
}

/** The texts of every tool result answering a call to `name` after the last user message, in order. */
export function toolAnswers(messages: readonly ChatMessage[], name: string): string[] {
  const turn = turnAfterUser(messages);
  const callIds = new Set<string>();
  for (const message of turn) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) if (call.function.name === name) callIds.add(call.id);
  }
  return turn.flatMap((m) => (m.role === 'tool' && callIds.has(m.tool_call_id) ? [textOf(m.content)] : []));
}

function turnAfterUser(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  return messages.slice(lastUserIndex(messages) + 1);
}
