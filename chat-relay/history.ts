import type { ThreadMessage } from './web-api';

/** The prompt a turn's job gets: the thread's recent messages (oldest first) as context, then the new message. */
export function composeTurnPrompt(
  history: ThreadMessage[],
  message: string,
  options: { botUserId: string; maxChars: number },
): string {
  const lines = history
    .map((m) => {
      const who = m.bot_id !== undefined || m.user === options.botUserId ? 'Keel' : `<@${m.user ?? 'someone'}>`;
      return `${who}: ${m.text.trim()}`;
    })
    .filter((line) => !line.endsWith(':'));
  const request = message.slice(0, options.maxChars);
  // Oldest lines go first when the whole would not fit: the newest context matters most.
  while (lines.length > 0 && composed(lines, request).length > options.maxChars) lines.shift();
  return lines.length > 0 ? composed(lines, request) : request;
}

function composed(lines: string[], request: string): string {
  return `Earlier in this chat thread (oldest first):\n${lines.join('\n')}\n\nNew message:\n${request}`;
}

/** The recency window: the last `window` messages of the thread before the message being answered. */
export function recentHistory(messages: ThreadMessage[], currentTs: string, window: number): ThreadMessage[] {
  if (window === 0) return [];
  return messages.filter((m) => m.ts !== currentTs && Number(m.ts) < Number(currentTs)).slice(-window);
}
