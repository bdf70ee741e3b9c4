import type { ModelRow } from './catalog/types';
import type { ChatMessage, ToolDefinition } from './chat-types';

/**
 * Fits a level's messages to one model's context window (docs/models.md "Context that fits"). Pure and deterministic:
 * the same messages and row give the same result, so a retried call sends what the first attempt sent.
 *
 * Tokens are estimated, not counted: no tokenizer covers every vendor's models, and the estimate must never be under
 * the truth or the window could overflow. About 3 characters a token (real tokenizers average about 4 on English and
 * 3 to 3.5 on code and JSON) plus a few tokens of framing per message; the vendor's usage is checked against it after
 * the call (`prompt_tokens_estimated` on level_finished).
 */
export const CHARS_PER_TOKEN = 3;
const TOKENS_PER_MESSAGE = 4;
/** The smallest share of the window one tool result may take before it is cut: an eighth, and never under this. */
const MIN_TOOL_RESULT_TOKENS = 1_000;
/** A result cut in the last resort still shows this much. */
const MIN_KEPT_CHARS = 200;

export function estimateMessageTokens(message: ChatMessage): number {
  const calls = message.tool_calls ? JSON.stringify(message.tool_calls).length : 0;
  return TOKENS_PER_MESSAGE + Math.ceil(((message.content?.length ?? 0) + calls) / CHARS_PER_TOKEN);
}

export function estimatePromptTokens(messages: readonly ChatMessage[], tools?: readonly ToolDefinition[]): number {
  const toolTokens = tools?.length ? Math.ceil(JSON.stringify(tools).length / CHARS_PER_TOKEN) : 0;
  return messages.reduce((sum, m) => sum + estimateMessageTokens(m), toolTokens);
}

/** What a model row leaves for the prompt: its context window less the output it may write (sent as max_tokens). */
export function inputWindow(row: Pick<ModelRow, 'context_tokens' | 'max_output_tokens'>): number {
  return row.context_tokens - row.max_output_tokens;
}

export interface FittedPrompt {
  messages: ChatMessage[];
  estimatedTokens: number;
  /** Tool results cut with a note saying how to read the rest. */
  cut: number;
  /** Older tool results replaced by a one-line summary. */
  dropped: number;
}

/** The prompt does not fit even with every tool result dropped: this model cannot take the level (the walk moves on). */
export class ContextTooSmall extends Error {
  override name = 'ContextTooSmall';
}

/**
 * The rule, in order, until the estimate fits the window:
 * 1. every tool result longer than an eighth of the window (at least 1,000 tokens) is cut to that, with a note saying
 *    how to read on (`read_file` with the line to start at, or a narrower pattern or query);
 * 2. the results of older tool rounds, oldest first, are replaced by a line naming the call and its size (the calls
 *    themselves stay: every vendor wants each call answered); the newest round is kept;
 * 3. the newest round's results are cut further, largest first, down to 200 characters each.
 * The system message, the tool definitions and the opening user message are never touched (they are the cached
 * prefix). If the prompt still does not fit, ContextTooSmall.
 */
export function fitToWindow(
  messages: readonly ChatMessage[],
  tools: readonly ToolDefinition[] | undefined,
  row: Pick<ModelRow, 'context_tokens' | 'max_output_tokens'>,
): FittedPrompt {
  const window = inputWindow(row);
  const out = messages.map((m) => ({ ...m }));
  const fitted = (cut: number, dropped: number): FittedPrompt | undefined => {
    const estimatedTokens = estimatePromptTokens(out, tools);
    return estimatedTokens <= window ? { messages: out, estimatedTokens, cut, dropped } : undefined;
  };
  let cut = 0;
  let dropped = 0;
  const calls = callsById(out);

  const cap = Math.max(MIN_TOOL_RESULT_TOKENS, Math.floor(window / 8)) * CHARS_PER_TOKEN;
  for (const message of out) {
    if (message.role !== 'tool' || (message.content?.length ?? 0) <= cap) continue;
    message.content = cutResult(message.content!, cap, calls.get(message.tool_call_id ?? ''));
    cut += 1;
  }
  const first = fitted(cut, dropped);
  if (first) return first;

  const lastAssistant = out.findLastIndex((m) => m.role === 'assistant');
  for (const [index, message] of out.entries()) {
    if (index >= lastAssistant) break;
    if (message.role !== 'tool') continue;
    message.content = droppedNote(message.content ?? '', calls.get(message.tool_call_id ?? ''));
    dropped += 1;
    const done = fitted(cut, dropped);
    if (done) return done;
  }

  const newest = out
    .slice(lastAssistant + 1)
    .filter((m) => m.role === 'tool')
    .sort((a, b) => (b.content?.length ?? 0) - (a.content?.length ?? 0));
  for (const message of newest) {
    const over = (estimatePromptTokens(out, tools) - window) * CHARS_PER_TOKEN;
    const length = message.content?.length ?? 0;
    if (over <= 0 || length <= MIN_KEPT_CHARS) break;
    message.content = cutResult(
      message.content!,
      Math.max(MIN_KEPT_CHARS, length - over - 400),
      calls.get(message.tool_call_id ?? ''),
    );
    cut += 1;
    const done = fitted(cut, dropped);
    if (done) return done;
  }
  const estimate = estimatePromptTokens(out, tools);
  throw new ContextTooSmall(`the prompt needs about ${estimate} tokens, over the ${window} this model takes`);
}

interface CallFacts {
  name: string;
  args: Record<string, unknown>;
  argsText: string;
}

function callsById(messages: readonly ChatMessage[]): Map<string, CallFacts> {
  const calls = new Map<string, CallFacts>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) {
      let args: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(call.function.arguments);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
      } catch {
        // Arguments that are not JSON are named as they are.
      }
      calls.set(call.id, { name: call.function.name, args, argsText: call.function.arguments });
    }
  }
  return calls;
}

/** read_file numbers each line (`%5d<TAB>text`); the cut tells the model the line to read on from. */
const NUMBERED_LINE = /^\s*(\d+)\t/;

function cutResult(content: string, keep: number, call: CallFacts | undefined): string {
  let kept = content.slice(0, keep);
  const lastBreak = kept.lastIndexOf('\n');
  if (lastBreak > keep / 2) kept = kept.slice(0, lastBreak + 1);
  let how = 'narrow the pattern or query, or ask for less at a time';
  if (call?.name === 'read_file' && typeof call.args.path === 'string') {
    const numbered = kept
      .split('\n')
      .map((line) => NUMBERED_LINE.exec(line)?.[1])
      .filter((n): n is string => n !== undefined);
    const next = numbered.length > 0 ? Number(numbered.at(-1)) + 1 : 1;
    how = `read the rest with read_file {"path": ${JSON.stringify(call.args.path)}, "start_line": ${next}}`;
  }
  return `${kept}\n[cut by Keel to fit the model's context window: showing ${kept.length} of ${content.length} characters; ${how}]`;
}

function droppedNote(content: string, call: CallFacts | undefined): string {
  const what = call ? `${call.name} ${call.argsText.slice(0, 160)}` : 'an earlier tool call';
  return `[dropped by Keel to fit the model's context window: the result of ${what} (${content.length} characters); call the tool again if it is still needed]`;
}
