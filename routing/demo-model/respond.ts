/**
 * The offline demo model (`keel-demo`, shown as "offline demo model"): what Keel serves on the chat_compat wire
 * when no LLM provider is configured, so a job runs end to end without keys. Its replies are a pure,
 * deterministic function of the request.
 *
 * Contract with Keel's level prompts:
 * - Role line: the first `system` (or `developer`) message contains a line `Keel level: <role>`; the role is the
 *   first whitespace-free word after the colon, e.g. `L1.team_lead`, `L2.architect`, `L3.verifier`,
 *   `L4.executor`. Its level is the `L1`–`L4` prefix (case-insensitive, followed by `.` or nothing).
 * - Request: the last `user` message carries the request. Keel may put context above it under headings; the
 *   user's job prompt is everything after the last line that starts with `Request:` (text on the marker line
 *   itself included), trimmed. Without a marker the whole message is the job prompt.
 * - Target file and its content: see `demoFileFor` (demo-file.ts), the single home of that rule.
 *
 * Replies, by level:
 * - L1: a numbered plan naming the target file and the L2 → L4 → L3 steps.
 * - L2: `Task: ...` and `Acceptance: ...` lines, one task for L4.
 * - L4: if a `tool` message follows the last user message, the text `Wrote <path>.` (finish `stop`). Otherwise,
 *   if `tools` offers a function `write_file` and `tool_choice` allows it (not `none`, not another
 *   function), one `write_file` call with
 *   arguments `{"path":...,"content":...}` from `demoFileFor` and id `call_` + the first 16 hex digits of the
 *   SHA-256 of `write_file:<arguments>` (finish `tool_calls`). Otherwise, the file content as text.
 * - L3: `{"verdict":"pass","deltas":[]}` when a line of the context (the last user message above its `Request:`
 *   marker, or all of it without one) contains the target path as a path token and the word `wrote` or
 *   `written`, and none of `not`, `n't`, `never`, `fail(ed)`, `error`, `unable`, `cannot`; else
 *   `{"verdict":"fail","deltas":["write <path>"]}`.
 * - Any other role, or no role line: a one-paragraph echo of the job prompt.
 *
 * Usage is estimated at ceil(chars / 4) tokens. Prompt chars: the text of every message, the name and arguments
 * of every tool call in them, and the JSON of `tools`. Completion chars: the reply text plus each tool call's
 * name and arguments.
 */
import { createHash } from 'node:crypto';
import type { AssistantMessage, ChatMessage, DemoReply, DemoRequest, FinishReason, ToolCall } from './chat-wire';
import { demoFileFor, isGreeting, oneLine, pathTokensIn, targetPathFor, titleFor } from './demo-file';
import { keelRoleOf, lastUserIndex, lastUserText, levelOf, splitRequest, textOf } from './prompt-contract';

export { demoFileFor } from './demo-file';

export const DEMO_MODEL_ID = 'keel-demo';
export const DEMO_MODEL_DISPLAY_NAME = 'offline demo model';
export const WRITE_FILE_TOOL = 'write_file';

const WROTE = /\b(?:wrote|written)\b/i;
const NEGATION = /\b(?:not|never|fail|failed|error|unable|cannot)\b|n't\b/i;

/**
 * The demo model's reply to a chat-completions request. Pure and deterministic: equal requests give equal
 * replies, including tool call ids. Never throws for a request that passed `chatCompletionRequestSchema`.
 */
export function respond(request: DemoRequest): DemoReply {
  const { message, finish_reason } = replyFor(request);
  const promptTokens = estimateTokens(promptChars(request));
  const completionTokens = estimateTokens((message.content ?? '').length + toolCallChars(message.tool_calls ?? []));
  return {
    message,
    finish_reason,
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

/** Token estimate used for usage: a quarter of the characters, rounded up. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** The deterministic id of a tool call: `call_` + the first 16 hex digits of SHA-256(`<name>:<arguments>`). */
export function toolCallId(name: string, args: string): string {
  return `call_${createHash('sha256').update(`${name}:${args}`).digest('hex').slice(0, 16)}`;
}

function replyFor(request: DemoRequest): { message: AssistantMessage; finish_reason: FinishReason } {
  const userText = lastUserText(request.messages);
  const { context, jobPrompt } = splitRequest(userText);
  const path = targetPathFor(jobPrompt);
  switch (levelOf(keelRoleOf(request.messages))) {
    case 1:
      return text(planFor(path));
    case 2:
      return text(taskFor(path, jobPrompt));
    case 3:
      return text(verdictFor(path, context));
    case 4:
      return executorReply(request, userText);
    default:
      return text(echoFor(jobPrompt));
  }
}

function text(content: string): { message: AssistantMessage; finish_reason: FinishReason } {
  return { message: { role: 'assistant', content }, finish_reason: 'stop' };
}

function planFor(path: string): string {
  return [
    `Plan for ${path}:`,
    `1. L2 writes one task for L4 to create ${path}, with acceptance criteria.`,
    `2. L4 writes ${path} with the ${WRITE_FILE_TOOL} tool.`,
    `3. L3 verifies that ${path} was written and meets the acceptance criteria.`,
  ].join('\n');
}

function taskFor(path: string, jobPrompt: string): string {
  const body = isGreeting(jobPrompt) ? 'greets the reader' : 'restates the request';
  return [
    `Task: Write ${path} with the ${WRITE_FILE_TOOL} tool for the request: "${oneLine(jobPrompt)}".`,
    `Acceptance: ${path} is written, its first line is "# ${titleFor(path)}", and its body ${body}.`,
  ].join('\n');
}

function verdictFor(path: string, context: string): string {
  const written = context
    .split('\n')
    .some((line) => WROTE.test(line) && !NEGATION.test(line) && pathTokensIn(line).includes(path));
  return JSON.stringify(written ? { verdict: 'pass', deltas: [] } : { verdict: 'fail', deltas: [`write ${path}`] });
}

function echoFor(jobPrompt: string): string {
  return (
    `The ${DEMO_MODEL_DISPLAY_NAME} (${DEMO_MODEL_ID}) received: "${oneLine(jobPrompt)}". ` +
    'It answers with fixed, deterministic text; configure an LLM provider for real answers.'
  );
}

function executorReply(
  request: DemoRequest,
  userText: string,
): { message: AssistantMessage; finish_reason: FinishReason } {
  const file = demoFileFor(userText);
  if (toolResultFollowsUser(request.messages)) return text(`Wrote ${file.path}.`);
  if (!offersWriteFile(request)) return text(file.content);
  const args = JSON.stringify({ path: file.path, content: file.content });
  const call: ToolCall = {
    id: toolCallId(WRITE_FILE_TOOL, args),
    type: 'function',
    function: { name: WRITE_FILE_TOOL, arguments: args },
  };
  return { message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' };
}

function toolResultFollowsUser(messages: readonly ChatMessage[]): boolean {
  return messages.slice(lastUserIndex(messages) + 1).some((message) => message.role === 'tool');
}

function offersWriteFile(request: DemoRequest): boolean {
  const choice = request.tool_choice;
  if (choice === 'none' || (typeof choice === 'object' && choice.function.name !== WRITE_FILE_TOOL)) return false;
  return (request.tools ?? []).some((tool) => tool.type === 'function' && tool.function.name === WRITE_FILE_TOOL);
}

function promptChars(request: DemoRequest): number {
  let chars = request.tools ? JSON.stringify(request.tools).length : 0;
  for (const message of request.messages) {
    chars += textOf(message.content).length;
    if (message.role === 'assistant') chars += toolCallChars(message.tool_calls ?? []);
  }
  return chars;
}

function toolCallChars(calls: readonly ToolCall[]): number {
  return calls.reduce((sum, call) => sum + call.function.name.length + call.function.arguments.length, 0);
}
