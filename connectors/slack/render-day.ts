// One channel-day as markdown: threads stitched under `## HH:MM — <topic>` headings, each message with its author,
// time, permalink, text, attachments and reactions. Pure, so goldens, the backfill and the bench share it.
import type { SlackMessage } from './api-schemas';
import type { ChannelPolicy } from './config';
import { compareTs, permalinkPath, utcDay, utcTime } from './timestamps';
import type { NameLookup } from './transforms';
import { transformText } from './transforms';

/** Membership noise, not content. */
const SKIPPED_SUBTYPES = new Set(['channel_join', 'channel_leave']);
const SNIPPET_CHARS = 60;

export interface SlackThread {
  root: SlackMessage;
  replies: SlackMessage[];
}

export interface ChannelDay {
  day: string;
  threads: SlackThread[];
}

function isRoot(message: SlackMessage): boolean {
  return message.thread_ts === undefined || message.thread_ts === message.ts;
}

/**
 * Merges messages (history and replies, any order, duplicates allowed) into threads and buckets them by the UTC day
 * of the thread's root: a thread stays whole in the file of the day it started. A reply whose root was not fetched
 * stands alone on its own day. Days and threads come out ascending.
 */
export function bucketChannelDays(messages: readonly SlackMessage[]): ChannelDay[] {
  const byTs = new Map<string, SlackMessage>();
  for (const message of messages) if (!SKIPPED_SUBTYPES.has(message.subtype ?? '')) byTs.set(message.ts, message);
  const sorted = [...byTs.values()].sort((a, b) => compareTs(a.ts, b.ts));
  const threads = new Map<string, SlackThread>();
  for (const message of sorted) {
    const parent = message.thread_ts !== undefined ? threads.get(message.thread_ts) : undefined;
    if (!isRoot(message) && parent) parent.replies.push(message);
    else threads.set(message.ts, { root: message, replies: [] });
  }
  const days = new Map<string, SlackThread[]>();
  for (const thread of threads.values()) {
    const day = utcDay(thread.root.ts);
    days.set(day, [...(days.get(day) ?? []), thread]);
  }
  return [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, list]) => ({ day, threads: list }));
}

export function dayMessages(day: ChannelDay): SlackMessage[] {
  return day.threads.flatMap((thread) => [thread.root, ...thread.replies]);
}

export function authorName(message: SlackMessage, names: NameLookup): string {
  if (message.user) {
    return (
      names.user(message.user) || message.user_profile?.display_name || message.user_profile?.real_name || message.user
    );
  }
  return message.username || message.bot_profile?.name || message.bot_id || 'unknown';
}

function snippet(text: string, fallback: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  const flat = line.replace(/\s+/g, ' ').trim();
  if (flat === '') return fallback;
  if (flat.length <= SNIPPET_CHARS) return flat;
  const cut = flat.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > SNIPPET_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export interface RenderContext {
  channel: ChannelPolicy;
  /** `https://<workspace host>`. */
  origin: string;
  names: NameLookup;
}

export function permalink(context: RenderContext, ts: string): string {
  return `${context.origin}${permalinkPath(context.channel.id, ts)}`;
}

/** One message: bold author, `(HH:MM UTC)` and permalink; the text; attachment names; an italic reactions footer. */
export function renderMessage(message: SlackMessage, context: RenderContext, reply = false): string {
  const parts = [
    `${reply ? '↳ ' : ''}**${authorName(message, context.names)}** (${utcTime(message.ts)} UTC) [link](${permalink(context, message.ts)})`,
  ];
  const text = transformText(message.text, context.names).trim();
  if (text) parts.push(text);
  // A file counts when it has either link; a file without both was deleted or is hidden from the integration.
  const files = (message.files ?? []).filter((file) => file.permalink || file.url_private);
  if (files.length > 0) {
    parts.push(
      files
        .map(
          (file) =>
            `- attachment: [${file.name || file.title || file.id || 'file'}](${file.permalink || file.url_private})`,
        )
        .join('\n'),
    );
  }
  const reactions = (message.reactions ?? []).filter((reaction) => reaction.count > 0);
  if (reactions.length > 0) {
    parts.push(`_Reactions: ${reactions.map((reaction) => `:${reaction.name}: ${reaction.count}`).join(', ')}_`);
  }
  return parts.join('\n\n');
}

export function dayTitle(channel: ChannelPolicy, day: string): string {
  return `#${channel.name} — ${day}`;
}

/** The record body of one channel-day. */
export function renderChannelDay(day: ChannelDay, context: RenderContext): string {
  const sections = day.threads.map((thread) => {
    const rootText = transformText(thread.root.text, context.names);
    const fallback = thread.root.files?.[0]?.name ?? '(no text)';
    const heading = `## ${utcTime(thread.root.ts)} — ${snippet(rootText, fallback)}`;
    const messages = [
      renderMessage(thread.root, context),
      ...thread.replies.map((m) => renderMessage(m, context, true)),
    ];
    return [heading, ...messages].join('\n\n');
  });
  return `# ${dayTitle(context.channel, day.day)}\n\n${sections.join('\n\n')}\n`;
}
