import type { ChatContent, ChatMessage } from './chat-wire';

/**
 * Reading Keel's level-prompt contract out of a conversation. The contract itself is documented at the top of
 * `respond.ts`; this module only parses it.
 */

const ROLE_LINE = /^[ \t]*Keel level:[ \t]*(\S+)/m;
const REVIEW_LINE = /^[ \t]*Keel review:/m;
const REQUEST_MARKER = /^[ \t]*Request:/gm;
const ATTEMPT_LINE = /^[ \t]*Attempt:[ \t]*(\d+)\b/gm;
const FAILED_BUILDS_LINE = /Failed builds:[ \t]*(\d+)\b/g;

/** The text of a message's content; array content contributes its `text` parts only. */
export function textOf(content: ChatContent | null | undefined): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

/**
 * The Keel role named by the `Keel level: <role>` line of the first system (or developer) message,
 * e.g. `L2.architect`; undefined when there is no such message or line.
 */
export function keelRoleOf(messages: readonly ChatMessage[]): string | undefined {
  const system = messages.find((message) => message.role === 'system' || message.role === 'developer');
  if (!system) return undefined;
  return ROLE_LINE.exec(textOf(system.content))?.[1];
}

/** True when the first system (or developer) message has a `Keel review:` line: the level reviews a result. */
export function isReviewRequest(messages: readonly ChatMessage[]): boolean {
  const system = messages.find((message) => message.role === 'system' || message.role === 'developer');
  return system !== undefined && REVIEW_LINE.test(textOf(system.content));
}

/** The hierarchy level of a role (`L1.team_lead` → 1, plain `L3` → 3); undefined for anything else. */
export function levelOf(role: string | undefined): number | undefined {
  const match = role === undefined ? null : /^L([1-4])(?:\.|$)/i.exec(role);
  return match ? Number(match[1]) : undefined;
}

/** Index of the last user message, or -1. */
export function lastUserIndex(messages: readonly ChatMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === 'user') return index;
  }
  return -1;
}

/** The text of the last user message, or '' when there is none. */
export function lastUserText(messages: readonly ChatMessage[]): string {
  return textOf(messages[lastUserIndex(messages)]?.content);
}

export interface SplitRequest {
  /** Everything above the last `Request:` line; the whole text when there is no marker. */
  context: string;
  /** Everything after the last `Request:` marker (same line and below), trimmed; the whole text, trimmed, without one. */
  jobPrompt: string;
}

/**
 * Splits a user message into the context Keel put above the job prompt and the job prompt itself.
 * The last marker wins because context is stacked above the request, and context may quote earlier prompts.
 */
export function splitRequest(text: string): SplitRequest {
  let markerStart = -1;
  let markerEnd = -1;
  for (const match of text.matchAll(REQUEST_MARKER)) {
    markerStart = match.index;
    markerEnd = match.index + match[0].length;
  }
  if (markerStart < 0) return { context: text, jobPrompt: text.trim() };
  return { context: text.slice(0, markerStart), jobPrompt: text.slice(markerEnd).trim() };
}

/**
 * The attempt number Keel's runtime writes as a line `Attempt: <k>` in a level's context (the text above the
 * `Request:` marker); 1 when there is none. As with the marker, the last such line wins: it sits closest to the
 * request, and earlier context may quote other levels' prompts.
 */
export function attemptOf(context: string): number {
  let attempt = 1;
  for (const match of context.matchAll(ATTEMPT_LINE)) attempt = Number(match[1]);
  return attempt;
}

/**
 * How many builds of this job failed so far, from the last `Failed builds: <n>` in a level's context (Keel's runtime
 * writes it into the deltas of a failed build verification); 0 when there is none.
 */
export function failedBuildsOf(context: string): number {
  let failed = 0;
  for (const match of context.matchAll(FAILED_BUILDS_LINE)) failed = Number(match[1]);
  return failed;
}
