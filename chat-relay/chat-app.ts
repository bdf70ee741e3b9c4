import type { SecretStore } from '../secrets/store';
import { chatAppSettings, type ChatAppEnv } from './config';
import { createChatWebApi, type ChatWebApi } from './web-api';

export interface ChatIdentity {
  /** The workspace Keel serves. */
  teamId: string;
  /** The bot's own user id: its posts are dropped and its mention addresses Keel. */
  botUserId: string;
}

/** The team-chat app as the API uses it: what verifies requests, who Keel is in the workspace, and the Web API. */
export interface ChatApp {
  /** The signing secret as the store holds it now; undefined (no id configured, or none stored): every request is refused. */
  signingSecret(): Promise<string | undefined>;
  /** Absent without a bot token; inbound requests then verify but cannot be acted on. */
  api?: ChatWebApi;
  /** Cached: auth.test runs once per process (again after a failure); CHATAPP_TEAM_ID overrides the workspace. */
  identity(): Promise<ChatIdentity>;
  /** The author's workspace when a message names none (users.info), cached per process. */
  authorTeam(userId: string): Promise<string | undefined>;
  /** How many of a thread's latest messages a turn gets as context. */
  historyMessages: number;
}

/** Keeps a user's workspace this long: long enough to spare a lookup per message, short enough to see a move. */
const AUTHOR_TEAM_TTL_MS = 10 * 60_000;

export function createChatApp(settings: {
  /** Read at each request, so a rotated signing secret applies at once. */
  signingSecret?: () => Promise<string | undefined>;
  api?: ChatWebApi;
  teamIdOverride?: string;
  historyMessages: number;
}): ChatApp {
  let identity: Promise<ChatIdentity> | undefined;
  const teams = new Map<string, { teamId: string | undefined; until: number }>();
  return {
    signingSecret: async () => settings.signingSecret?.(),
    api: settings.api,
    historyMessages: settings.historyMessages,
    identity() {
      const api = settings.api;
      if (!api) return Promise.reject(new Error('no chat bot token: set CHATAPP_BOT_TOKEN_SECRET_ID'));
      identity ??= api.authTest().then(
        ({ teamId, userId }) => ({ teamId: settings.teamIdOverride ?? teamId, botUserId: userId }),
        (err: unknown) => {
          identity = undefined;
          throw err;
        },
      );
      return identity;
    },
    async authorTeam(userId) {
      const cached = teams.get(userId);
      if (cached && cached.until > Date.now()) return cached.teamId;
      if (!settings.api) return undefined;
      const teamId = await settings.api.userTeam(userId);
      teams.set(userId, { teamId, until: Date.now() + AUTHOR_TEAM_TTL_MS });
      return teamId;
    },
  };
}

/**
 * The chat app the environment configures; without a signing secret it still exists and refuses every request. The
 * variable CHATAPP_SIGNING_SECRET wins over the store's; the store's is read at each request (rotation, no restart).
 */
export function chatAppFromEnv(env: ChatAppEnv, secrets: SecretStore): ChatApp {
  const settings = chatAppSettings(env);
  const { signingSecretId, signingSecret: fromEnv } = settings;
  const fromStore = signingSecretId === undefined ? undefined : () => secrets.get(signingSecretId);
  return createChatApp({
    signingSecret: fromEnv !== undefined ? () => Promise.resolve(fromEnv) : fromStore,
    api: chatWebApiFromEnv(env, secrets),
    teamIdOverride: settings.teamIdOverride,
    historyMessages: settings.historyMessages,
  });
}

/**
 * The Web API for workers (posting progress, answers and buttons) and the API; undefined when no bot token id is
 * configured. The token is read from the store at each call, so a rotated token is used without a restart.
 */
export function chatWebApiFromEnv(env: ChatAppEnv, secrets: SecretStore): ChatWebApi | undefined {
  const settings = chatAppSettings(env);
  const id = settings.botTokenSecretId;
  if (id === undefined) return undefined;
  return createChatWebApi({
    token: async () => {
      const token = await secrets.get(id);
      if (!token) throw new Error(`no chat bot token: secret ${id} is not in the secrets store (${secrets.where(id)})`);
      return token;
    },
    apiUrl: settings.apiUrl,
  });
}
