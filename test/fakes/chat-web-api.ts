import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

/** A call Keel made to the chat system's Web API: the method and its arguments as the chat system would read them. */
export interface ChatApiCall {
  method: string;
  args: Record<string, unknown>;
}

export interface FakeChatMessage {
  ts: string;
  user?: string;
  bot_id?: string;
  text: string;
  thread_ts?: string;
}

export interface FakeChatWebApi {
  /** The base URL to give Keel (CHATAPP_API_URL), ending in `/api/` like the real one. */
  apiUrl: string;
  token: string;
  teamId: string;
  botUserId: string;
  readonly calls: ReadonlyArray<ChatApiCall>;
  /** Calls of one method, e.g. `chat.postMessage`. */
  callsOf(method: string): ChatApiCall[];
  /** Resolves with the first call (already made or still to come) that matches; rejects after `timeoutMs`. */
  waitFor(method: string, match?: (args: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<ChatApiCall>;
  /** Resolves once `count` calls match (made already or still to come); rejects after `timeoutMs`. */
  waitForCount(
    method: string,
    match: (args: Record<string, unknown>) => boolean,
    count: number,
    timeoutMs?: number,
  ): Promise<ChatApiCall[]>;
  /** A message already in a thread, as a person posted it (conversations.replies returns it). */
  addThreadMessage(channel: string, threadTs: string, message: FakeChatMessage): void;
  /** A user of another workspace (users.info answers with that team). */
  addUser(userId: string, teamId: string): void;
  close(): Promise<void>;
}

/** Fields the Web API takes as JSON inside a form-encoded body. */
const JSON_FIELDS = new Set(['blocks', 'attachments', 'metadata']);

/**
 * A local server speaking the chat system's Web API wire (form-encoded or JSON requests, `{ ok, ... }` answers, errors
 * as `ok: false` with HTTP 200) for the methods Keel calls: auth.test, chat.postMessage, chat.update,
 * conversations.replies and users.info. It records every call and keeps the threads it was told about, Keel's own
 * posts included, so conversations.replies answers like the real thing.
 */
export async function startFakeChatWebApi(
  options: { teamId?: string; botUserId?: string; token?: string } = {},
): Promise<FakeChatWebApi> {
  const teamId = options.teamId ?? 'T0KEEL';
  const botUserId = options.botUserId ?? 'UKEELBOT';
  const botId = 'BKEELBOT';
  const token = options.token ?? 'xoxb-fake-token';
  const calls: ChatApiCall[] = [];
  const waiters = new Set<() => void>();
  const threads = new Map<string, FakeChatMessage[]>();
  const users = new Map<string, string>();
  let clock = 1_800_000_000;
  const nextTs = () => `${clock++}.000100`;

  const app = Fastify({ logger: false, forceCloseConnections: true });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const args: Record<string, unknown> = {};
    for (const [key, value] of new URLSearchParams(body as string)) {
      args[key] = JSON_FIELDS.has(key) ? JSON.parse(value) : value;
    }
    done(null, args);
  });

  app.post<{ Params: { method: string }; Body: Record<string, unknown> | undefined }>(
    '/api/:method',
    async (request) => {
      const { method } = request.params;
      const args = request.body ?? {};
      if (request.headers.authorization !== `Bearer ${token}`) return { ok: false, error: 'invalid_auth' };
      calls.push({ method, args });
      for (const wake of [...waiters]) wake();
      const str = (key: string) => (typeof args[key] === 'string' ? args[key] : undefined);
      switch (method) {
        case 'auth.test':
          return {
            ok: true,
            url: 'https://keel-test.example/',
            team: 'Keel test',
            user: 'keel',
            team_id: teamId,
            user_id: botUserId,
            bot_id: botId,
          };
        case 'chat.postMessage': {
          const channel = str('channel');
          if (!channel || !str('text')) return { ok: false, error: 'invalid_arguments' };
          const ts = nextTs();
          const threadTs = str('thread_ts') ?? ts;
          const message = { ts, bot_id: botId, user: botUserId, text: str('text') ?? '', thread_ts: threadTs };
          thread(channel, threadTs).push(message);
          return { ok: true, channel, ts, message };
        }
        case 'chat.update': {
          const channel = str('channel');
          const ts = str('ts');
          if (!channel || !ts) return { ok: false, error: 'invalid_arguments' };
          return { ok: true, channel, ts, text: str('text') };
        }
        case 'conversations.replies': {
          const channel = str('channel');
          const ts = str('ts');
          if (!channel || !ts) return { ok: false, error: 'invalid_arguments' };
          const messages = threads.get(`${channel}:${ts}`);
          if (!messages) return { ok: false, error: 'thread_not_found' };
          return { ok: true, messages, has_more: false, response_metadata: { next_cursor: '' } };
        }
        case 'users.info': {
          const user = str('user');
          if (!user) return { ok: false, error: 'user_not_found' };
          return { ok: true, user: { id: user, team_id: users.get(user) ?? teamId, name: user.toLowerCase() } };
        }
        default:
          return { ok: false, error: 'unknown_method' };
      }
    },
  );

  function thread(channel: string, threadTs: string): FakeChatMessage[] {
    const key = `${channel}:${threadTs}`;
    let messages = threads.get(key);
    if (!messages) threads.set(key, (messages = []));
    return messages;
  }

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const callsOf = (method: string) => calls.filter((c) => c.method === method);
  const waitForCount = (
    method: string,
    match: (args: Record<string, unknown>) => boolean,
    count: number,
    timeoutMs = 60_000,
  ): Promise<ChatApiCall[]> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = calls.filter((c) => c.method === method && match(c.args));
        if (found.length < count) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(`fewer than ${count} ${method} calls matched within ${timeoutMs} ms: ${JSON.stringify(calls)}`),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  return {
    apiUrl: `http://127.0.0.1:${port}/api/`,
    token,
    teamId,
    botUserId,
    calls,
    callsOf,
    async waitFor(method, match = () => true, timeoutMs = 60_000) {
      return (await waitForCount(method, match, 1, timeoutMs))[0]!;
    },
    waitForCount,
    addThreadMessage(channel, threadTs, message) {
      thread(channel, threadTs).push({ thread_ts: threadTs, ...message });
    },
    addUser(userId, userTeam) {
      users.set(userId, userTeam);
    },
    close: () => app.close(),
  };
}
