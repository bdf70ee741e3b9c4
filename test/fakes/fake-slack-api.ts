import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

/** A message as Slack stores it (history shows roots and broadcasts; replies answers whole threads). */
export interface FakeSlackMessage {
  ts: string;
  user?: string;
  text: string;
  thread_ts?: string;
  subtype?: string;
  files?: Array<Record<string, unknown>>;
  reactions?: Array<{ name: string; count: number; users: string[] }>;
}

export interface FakeSlackCall {
  method: string;
  args: Record<string, string>;
  /** The injected clock's time when the call arrived. */
  at: number;
}

export interface FakeSlackApi {
  /** SLACK_API_URL for the connector. */
  url: string;
  token: string;
  readonly calls: ReadonlyArray<FakeSlackCall>;
  callsOf(method: string): FakeSlackCall[];
  addMessages(channel: string, ...messages: FakeSlackMessage[]): void;
  addUser(id: string, displayName: string): void;
  /** The next `count` calls get HTTP 429 with `Retry-After: <seconds>`, as Slack's tier limits answer. */
  throttleNext(count: number, retryAfterSeconds: number): void;
  close(): Promise<void>;
}

const cmpTs = (a: string, b: string) => (a === b ? 0 : Number(a) < Number(b) ? -1 : 1);
const encodeCursor = (index: number) => Buffer.from(`next_index:${index}`).toString('base64');
const decodeCursor = (cursor: string | undefined) =>
  cursor ? Number(Buffer.from(cursor, 'base64').toString().replace('next_index:', '')) : 0;

/**
 * A local server speaking the Slack Web API wire (form-encoded POSTs, bearer token, `{ ok, ... }` answers, errors as
 * `ok: false` with HTTP 200, 429 with Retry-After) for conversations.history (newest first, `oldest`/`inclusive`,
 * `limit`/`cursor` pagination), conversations.replies (root first, ascending, paginated) and users.info.
 */
export async function startFakeSlackApi(
  options: { now?: () => number; pageLimit?: number } = {},
): Promise<FakeSlackApi> {
  const token = 'xoxb-fake-connector';
  const now = options.now ?? (() => Date.now());
  const channels = new Map<string, FakeSlackMessage[]>();
  const users = new Map<string, string>();
  const calls: FakeSlackCall[] = [];
  let throttle = { count: 0, seconds: 1 };

  const page = (items: FakeSlackMessage[], args: Record<string, string>) => {
    const limit = Math.min(Number(args.limit ?? 100), options.pageLimit ?? 1000);
    const start = decodeCursor(args.cursor);
    const slice = items.slice(start, start + limit).map((message) => ({
      type: 'message',
      ...message,
      ...(message.thread_ts === message.ts ? { reply_count: thread(args.channel!, message.ts).length - 1 } : {}),
    }));
    const more = start + limit < items.length;
    return {
      ok: true,
      messages: slice,
      has_more: more,
      response_metadata: { next_cursor: more ? encodeCursor(start + limit) : '' },
    };
  };
  const thread = (channel: string, ts: string) =>
    (channels.get(channel) ?? []).filter((m) => m.ts === ts || m.thread_ts === ts).sort((a, b) => cmpTs(a.ts, b.ts));

  const app = Fastify({ logger: false, forceCloseConnections: true });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.post<{ Params: { method: string }; Body: Record<string, string> | undefined }>(
    '/api/:method',
    async (request, reply) => {
      const { method } = request.params;
      const args = request.body ?? {};
      calls.push({ method, args, at: now() });
      if (throttle.count > 0) {
        throttle.count -= 1;
        return reply
          .code(429)
          .header('retry-after', String(throttle.seconds))
          .send({ ok: false, error: 'ratelimited' });
      }
      if (request.headers.authorization !== `Bearer ${token}`) return { ok: false, error: 'invalid_auth' };
      switch (method) {
        case 'conversations.history': {
          const all = channels.get(args.channel ?? '');
          if (!all) return { ok: false, error: 'channel_not_found' };
          const oldest = args.oldest ?? '0';
          const visible = all
            .filter((m) => m.thread_ts === undefined || m.thread_ts === m.ts || m.subtype === 'thread_broadcast')
            .filter((m) => (args.inclusive === 'true' ? cmpTs(m.ts, oldest) >= 0 : cmpTs(m.ts, oldest) > 0))
            .sort((a, b) => cmpTs(b.ts, a.ts));
          return page(visible, args);
        }
        case 'conversations.replies': {
          const messages = thread(args.channel ?? '', args.ts ?? '');
          if (messages.length === 0) return { ok: false, error: 'thread_not_found' };
          return page(messages, args);
        }
        case 'users.info': {
          const name = users.get(args.user ?? '');
          if (!name) return { ok: false, error: 'user_not_found' };
          return {
            ok: true,
            user: {
              id: args.user,
              name: name.toLowerCase(),
              real_name: `${name} Real`,
              profile: { display_name: name, real_name: `${name} Real` },
            },
          };
        }
        default:
          return { ok: false, error: 'unknown_method' };
      }
    },
  );

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    token,
    calls,
    callsOf: (method) => calls.filter((call) => call.method === method),
    addMessages(channel, ...messages) {
      channels.set(channel, [...(channels.get(channel) ?? []), ...messages]);
    },
    addUser(id, displayName) {
      users.set(id, displayName);
    },
    throttleNext(count, seconds) {
      throttle = { count, seconds };
    },
    close: () => app.close(),
  };
}
