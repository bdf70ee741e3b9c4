import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';

const optionalText = z.preprocess(emptyAsUndefined, z.string().min(1).optional());

/** The team-chat app's environment, shared by the API (inbound requests) and workers (posting in threads). */
export const chatAppEnv = z.object({
  /** Signs every inbound chat request; while unset every request to /v1/chatapp/* is refused with 401. */
  CHATAPP_SIGNING_SECRET: optionalText,
  /** The bot token (xoxb-…). Wins over CHATAPP_BOT_TOKEN_SECRET_ID when both are set. */
  CHATAPP_BOT_TOKEN: optionalText,
  /** Id of the bot token in the secrets store. */
  CHATAPP_BOT_TOKEN_SECRET_ID: optionalText,
  /** Overrides the workspace id that auth.test reports (e.g. an Enterprise Grid org-wide install). */
  CHATAPP_TEAM_ID: optionalText,
  /** The Web API base URL; tests point it at a local server speaking the same wire. */
  CHATAPP_API_URL: z.preprocess(emptyAsUndefined, z.url().default('https://slack.com/api/')),
  /** How many of a thread's latest messages a turn's job gets as context (the recency window). */
  CHATAPP_HISTORY_MESSAGES: z.coerce.number().int().min(0).max(200).default(20),
});
export type ChatAppEnv = z.infer<typeof chatAppEnv>;

/** Looks a secret up by id in the secrets store; undefined when it has no such secret. */
export type SecretLookup = (id: string) => string | undefined;

export interface ChatAppSettings {
  signingSecret?: string;
  botToken?: string;
  teamIdOverride?: string;
  apiUrl: string;
  historyMessages: number;
}

/**
 * The chat settings from the environment. The bot token is CHATAPP_BOT_TOKEN when set (env wins, so an operator can
 * override a stored secret), else the secrets store's CHATAPP_BOT_TOKEN_SECRET_ID through `secrets`. Keel has no
 * secrets store yet, so entry points pass none and only the env variable resolves.
 */
export function chatAppSettings(env: ChatAppEnv, secrets?: SecretLookup): ChatAppSettings {
  const fromSecret =
    env.CHATAPP_BOT_TOKEN_SECRET_ID !== undefined && secrets ? secrets(env.CHATAPP_BOT_TOKEN_SECRET_ID) : undefined;
  return {
    signingSecret: env.CHATAPP_SIGNING_SECRET,
    botToken: env.CHATAPP_BOT_TOKEN ?? (fromSecret || undefined),
    teamIdOverride: env.CHATAPP_TEAM_ID,
    // The Web API client appends the method name to the base, which therefore ends with a slash.
    apiUrl: env.CHATAPP_API_URL.endsWith('/') ? env.CHATAPP_API_URL : `${env.CHATAPP_API_URL}/`,
    historyMessages: env.CHATAPP_HISTORY_MESSAGES,
  };
}

/**
 * The team-chat slice of a process that serves inbound chat requests (the API, `npm start`): a signing secret needs a
 * bot token to act on what it verifies. Keel has no secrets store yet, so only CHATAPP_BOT_TOKEN can provide one.
 */
export const chatAppInbound = chatAppEnv.superRefine((env, ctx) => {
  if (!env.CHATAPP_SIGNING_SECRET || env.CHATAPP_BOT_TOKEN) return;
  const hint = env.CHATAPP_BOT_TOKEN_SECRET_ID
    ? ` (CHATAPP_BOT_TOKEN_SECRET_ID ${env.CHATAPP_BOT_TOKEN_SECRET_ID} cannot resolve: no secrets store)`
    : '';
  ctx.addIssue({
    code: 'custom',
    path: ['CHATAPP_BOT_TOKEN'],
    message: `required with CHATAPP_SIGNING_SECRET${hint}; set it, or unset the secret`,
  });
});
