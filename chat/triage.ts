import type { ChatMessageEvent } from './payloads';

/** The chat system's built-in bot posts as this user and carries no bot id. */
export const BUILT_IN_BOT_USER = 'USLACKBOT';

export type DropRule =
  | 'own_or_other_bot'
  | 'built_in_bot'
  | 'attachments'
  | 'subtype'
  | 'duplicate_delivery'
  | 'outside_workspace'
  | 'not_addressed'
  | 'empty';

export type Triage = { act: true; why: 'direct_message' | 'mention' | 'thread_reply' } | { act: false; rule: DropRule };

export interface TriageContext {
  /** The bot's own user id (auth.test). */
  botUserId: string;
  /** The workspace Keel serves (CHATAPP_TEAM_ID, else auth.test). */
  teamId: string;
  /** The author's workspace, from the event or a user lookup; undefined when neither says. */
  authorTeamId: string | undefined;
  /** This delivery, or the same message through another event type, was seen before. */
  duplicate: boolean;
  /** The message's thread already has a conversation (a row in the chat-thread mapping). */
  threadKnown: boolean;
}

/** True for a reply inside a thread: a top-level message (no thread_ts, or its own ts) is never one. */
export function isThreadReply(event: ChatMessageEvent): boolean {
  return event.thread_ts !== undefined && event.thread_ts !== event.ts;
}

export function mentionsBot(event: ChatMessageEvent, botUserId: string): boolean {
  return event.type === 'app_mention' || event.text.includes(`<@${botUserId}>`);
}

/**
 * The spec's inbound triage, in its order: the drop rules first (each names itself for the debug log), then the three
 * reasons to act. Pure, so every rule is tested without a chat system.
 */
export function triageMessage(event: ChatMessageEvent, ctx: TriageContext): Triage {
  if (event.bot_id !== undefined) return { act: false, rule: 'own_or_other_bot' };
  if (event.user === BUILT_IN_BOT_USER) return { act: false, rule: 'built_in_bot' };
  if ((event.files?.length ?? 0) > 0 || (event.attachments?.length ?? 0) > 0)
    return { act: false, rule: 'attachments' };
  if (event.subtype !== undefined) return { act: false, rule: 'subtype' };
  if (ctx.duplicate) return { act: false, rule: 'duplicate_delivery' };
  // An author without a known workspace is not known to be inside it.
  if (event.user === undefined || ctx.authorTeamId !== ctx.teamId) return { act: false, rule: 'outside_workspace' };
  if (event.user === ctx.botUserId) return { act: false, rule: 'own_or_other_bot' };
  if (promptText(event, ctx.botUserId) === '') return { act: false, rule: 'empty' };
  if (event.channel_type === 'im') return { act: true, why: 'direct_message' };
  if (mentionsBot(event, ctx.botUserId)) return { act: true, why: 'mention' };
  if (isThreadReply(event) && ctx.threadKnown) return { act: true, why: 'thread_reply' };
  return { act: false, rule: 'not_addressed' };
}

/** The message as a prompt: the bot's own mention removed (it addresses Keel, it is not part of the request). */
export function promptText(event: ChatMessageEvent, botUserId: string): string {
  return event.text.split(`<@${botUserId}>`).join('').trim();
}
