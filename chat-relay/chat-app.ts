import { ConfigError } from '../config/parse-env';
import { chatAppSettings, type ChatAppEnv, type SecretLookup } from './config';
import { createChatWebApi, type ChatWebApi } from './web-api';

export interface ChatIdentity {
  /** The workspace Keel serves. */
  teamId: string;
  /** The bot's own user id: its posts are dropped and its mention addresses Keel. */
  botUserId: string;
}

/** The team-chat app as the API uses it: what verifies requests, who Keel is in the workspace, and the Web API. */
export interface ChatApp {
  /** Unset: every inbound chat request is refused. */
  signingSecret?: string;
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
  signingSecret?: string;
  api?: ChatWebApi;
  teamIdOverride?: string;
  historyMessages: number;
}): ChatApp {
  let identity: Promise<ChatIdentity> | undefined;
  const teams = new Map<string, { teamId: string | undefined; until: number }>();
  return {
    signingSecret: settings.signingSecret,
    api: settings.api,
    historyMessages: settings.historyMessages,
    identity() {
      const api = settings.api;
      if (!api) return Promise.reject(new Error('no chat bot token: set CHATAPP_BOT_TOKEN'));
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

/** The chat app the environment configures; without a signing secret it still exists and refuses every request. */
export function chatAppFromEnv(env: ChatAppEnv, secrets?: SecretLookup): ChatApp {
  const settings = chatAppSettings(env, secrets);
  if (settings.signingSecret && !settings.botToken) {
    const hint = env.CHATAPP_BOT_TOKEN_SECRET_ID
      ? ` (CHATAPP_BOT_TOKEN_SECRET_ID ${env.CHATAPP_BOT_TOKEN_SECRET_ID} did not resolve: this process has no secrets store)`
      : '';
    throw new ConfigError(
      `team chat: CHATAPP_SIGNING_SECRET is set but no bot token is${hint}; set CHATAPP_BOT_TOKEN, or unset the secret`,
    );
  }
  return createChatApp({
    signingSecret: settings.signingSecret,
    api: settings.botToken ? createChatWebApi({ token: settings.botToken, apiUrl: settings.apiUrl }) : undefined,
    teamIdOverride: settings.teamIdOverride,
    historyMessages: settings.historyMessages,
  });
}

/** The Web API for workers (posting progress, answers and buttons); undefined when no bot token is configured. */
export function chatWebApiFromEnv(env: ChatAppEnv, secrets?: SecretLookup): ChatWebApi | undefined {
  const settings = chatAppSettings(env, secrets);
  return settings.botToken ? createChatWebApi({ token: settings.botToken, apiUrl: settings.apiUrl }) : undefined;
}
