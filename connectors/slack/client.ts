import type { z } from 'zod';
import type { Clock } from '../clock';
import { fetchRetrying, UpstreamError } from '../http';
import type { SlackMessage } from './api-schemas';
import {
  displayName,
  HistoryResponseSchema,
  RepliesResponseSchema,
  SlackErrorSchema,
  UsersInfoResponseSchema,
} from './api-schemas';

const PAGE_LIMIT = 200;

export interface SlackClientOptions {
  /** e.g. `https://slack.com/api` (no trailing method). */
  baseUrl: string;
  token: string;
  clock: Clock;
  signal?: AbortSignal;
}

/** The Web API methods the connector reads, over form-encoded POSTs with the token as a bearer header. */
export class SlackClient {
  private readonly users = new Map<string, Promise<string | undefined>>();

  constructor(private readonly options: SlackClientOptions) {}

  private async call<S extends z.ZodType>(
    method: string,
    args: Record<string, string>,
    schema: S,
  ): Promise<z.output<S>> {
    const response = await fetchRetrying(
      `${this.options.baseUrl.replace(/\/+$/, '')}/${method}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.token}`,
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        },
        body: new URLSearchParams(args).toString(),
      },
      { clock: this.options.clock, signal: this.options.signal },
    );
    if (!response.ok) throw new UpstreamError(`Slack ${method} answered HTTP ${response.status}`, response.status);
    const json: unknown = await response.json();
    const failure = SlackErrorSchema.safeParse(json);
    if (failure.success) throw new SlackApiError(method, failure.data.error);
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new UpstreamError(`Slack ${method}: unexpected JSON: ${parsed.error.message}`, 502);
    return parsed.data;
  }

  private async paged(method: string, args: Record<string, string>): Promise<SlackMessage[]> {
    const messages: SlackMessage[] = [];
    let cursor = '';
    do {
      const page = await this.call(
        method,
        { ...args, limit: String(PAGE_LIMIT), ...(cursor ? { cursor } : {}) },
        method === 'conversations.replies' ? RepliesResponseSchema : HistoryResponseSchema,
      );
      messages.push(...page.messages);
      cursor = page.response_metadata?.next_cursor ?? '';
    } while (cursor);
    return messages;
  }

  /** Every top-level message at or after `oldest` (a Slack ts), in Slack's order (newest first). */
  history(channel: string, oldest: string): Promise<SlackMessage[]> {
    return this.paged('conversations.history', { channel, oldest, inclusive: 'true' });
  }

  /** A thread: the root and every reply. */
  replies(channel: string, threadTs: string): Promise<SlackMessage[]> {
    return this.paged('conversations.replies', { channel, ts: threadTs });
  }

  /** The display name, looked up once per user per run; undefined for a user Slack does not know. */
  userName(id: string): Promise<string | undefined> {
    let cached = this.users.get(id);
    if (!cached) {
      cached = this.call('users.info', { user: id }, UsersInfoResponseSchema).then(
        (answer) => displayName(answer.user),
        (err: unknown) => {
          if (err instanceof SlackApiError && err.code === 'user_not_found') return undefined;
          throw err;
        },
      );
      this.users.set(id, cached);
    }
    return cached;
  }
}

/** Slack answered `ok: false`; `code` is Slack's error string (`channel_not_found`, `not_in_channel`, …). */
export class SlackApiError extends Error {
  override name = 'SlackApiError';
  constructor(
    readonly method: string,
    readonly code: string,
  ) {
    super(`Slack ${method} failed: ${code}`);
  }
}
