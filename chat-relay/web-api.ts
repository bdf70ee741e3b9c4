import { LogLevel, WebClient } from '@slack/web-api';
import { z } from 'zod';

/** A Block Kit block; built by chat-relay/messages.ts and passed through as the Web API takes it. */
export type ChatBlock = Record<string, unknown>;

export interface ChatPost {
  channel: string;
  /** The thread to post in; every post of Keel's is a thread reply. */
  threadTs: string;
  /** Plain text: the notification and the fallback for clients that cannot show blocks. */
  text: string;
  blocks?: ChatBlock[];
}

/** A message of a thread, as conversations.replies returns it (only what Keel reads). */
export interface ThreadMessage {
  ts: string;
  user?: string;
  bot_id?: string;
  text: string;
}

/** The Web API methods Keel calls. Responses are checked with zod: a surprise fails loudly, not as undefined later. */
export interface ChatWebApi {
  /** Who the bot token belongs to: the workspace and the bot's own user id. */
  authTest(): Promise<{ teamId: string; userId: string }>;
  /** Posts in a thread; returns the new message's ts (its id for chat.update). */
  postMessage(post: ChatPost): Promise<string>;
  updateMessage(update: { channel: string; ts: string; text: string; blocks?: ChatBlock[] }): Promise<void>;
  /** The thread's messages, oldest first, the parent included. */
  threadReplies(channel: string, threadTs: string): Promise<ThreadMessage[]>;
  /** The workspace a user belongs to, for users a message names no team for. */
  userTeam(userId: string): Promise<string | undefined>;
}

const AuthTestResponse = z.object({ team_id: z.string().min(1), user_id: z.string().min(1) });
const PostMessageResponse = z.object({ ts: z.string().min(1) });
const RepliesResponse = z.object({
  messages: z
    .array(z.object({ ts: z.string(), user: z.string().optional(), bot_id: z.string().optional(), text: z.string() }))
    .default([]),
  response_metadata: z.object({ next_cursor: z.string().optional() }).optional(),
});
const UserInfoResponse = z.object({ user: z.object({ id: z.string(), team_id: z.string().optional() }) });

/** Pages of conversations.replies read at most; a longer thread's oldest messages are beyond the recency window. */
const MAX_REPLY_PAGES = 5;

/**
 * The Web API over the field's own client. Its retries are off: the caller owns them (a Temporal activity's retry
 * policy, or an inbound request that must answer within the chat system's 3 s).
 */
export function createChatWebApi(options: {
  /** The bot token, or how to get it at each call (from the secrets store, so a rotated token needs no restart). */
  token: string | (() => Promise<string>);
  apiUrl: string;
  timeoutMs?: number;
}): ChatWebApi {
  const tokenOf = typeof options.token === 'string' ? () => Promise.resolve(options.token as string) : options.token;
  // No token in the client itself: every call passes the current one.
  const client = new WebClient(undefined, {
    slackApiUrl: options.apiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: options.timeoutMs ?? 10_000,
    logLevel: LogLevel.ERROR,
  });
  return {
    async authTest() {
      const parsed = AuthTestResponse.parse(await client.auth.test({ token: await tokenOf() }));
      return { teamId: parsed.team_id, userId: parsed.user_id };
    },
    async postMessage(post) {
      const response = await client.chat.postMessage({
        token: await tokenOf(),
        channel: post.channel,
        thread_ts: post.threadTs,
        text: post.text,
        ...(post.blocks ? { blocks: post.blocks as never } : {}),
        unfurl_links: false,
      });
      return PostMessageResponse.parse(response).ts;
    },
    async updateMessage(update) {
      await client.chat.update({
        token: await tokenOf(),
        channel: update.channel,
        ts: update.ts,
        text: update.text,
        ...(update.blocks ? { blocks: update.blocks as never } : {}),
      });
    },
    async threadReplies(channel, threadTs) {
      const messages: ThreadMessage[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_REPLY_PAGES; page++) {
        const parsed = RepliesResponse.parse(
          await client.conversations.replies({
            token: await tokenOf(),
            channel,
            ts: threadTs,
            limit: 200,
            ...(cursor ? { cursor } : {}),
          }),
        );
        messages.push(...parsed.messages);
        cursor = parsed.response_metadata?.next_cursor || undefined;
        if (!cursor) break;
      }
      return messages;
    },
    async userTeam(userId) {
      return UserInfoResponse.parse(await client.users.info({ token: await tokenOf(), user: userId })).user.team_id;
    },
  };
}
