import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';
import type { EnvOrStoreSource } from '../secrets/env-or-store';
import { SecretIdSchema } from '../secrets/id';

const optionalText = z.preprocess(emptyAsUndefined, z.string().min(1).optional());
const optionalSecretId = z.preprocess(emptyAsUndefined, SecretIdSchema.optional());
/** A credential that used to be a variable: refused rather than ignored, so a deployment notices the move. */
const movedToStore = (idVariable: string) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .undefined({ error: `not read: put it in the secrets store and name it in ${idVariable} (docs/secrets.md)` })
      .optional(),
  );

/** The team-chat app's environment, shared by the API (inbound requests) and workers (posting in threads). */
export const chatAppEnv = z.object({
  /** Id of the signing secret in the secrets store; while neither it nor the variable is set every request to /v1/chatapp/* is refused. */
  CHATAPP_SIGNING_SECRET_ID: optionalSecretId,
  /** Id of the bot token (xoxb-…) in the secrets store. */
  CHATAPP_BOT_TOKEN_SECRET_ID: optionalSecretId,
  /**
   * The signing secret itself, as the ingest spec names it. It wins over the store's (CHATAPP_SIGNING_SECRET_ID), with
   * a warning at start: the store is the recommended place, and only there does a rotation apply without a restart.
   */
  CHATAPP_SIGNING_SECRET: optionalText,
  CHATAPP_BOT_TOKEN: movedToStore('CHATAPP_BOT_TOKEN_SECRET_ID'),
  /** Overrides the workspace id that auth.test reports (e.g. an Enterprise Grid org-wide install). */
  CHATAPP_TEAM_ID: optionalText,
  /** The Web API base URL; tests point it at a local server speaking the same wire. */
  CHATAPP_API_URL: z.preprocess(emptyAsUndefined, z.url().default('https://slack.com/api/')),
  /** How many of a thread's latest messages a turn's job gets as context (the recency window). */
  CHATAPP_HISTORY_MESSAGES: z.coerce.number().int().min(0).max(200).default(20),
});
export type ChatAppEnv = z.infer<typeof chatAppEnv>;

export interface ChatAppSettings {
  /** The secrets-store ids of the two credentials; their values are read at each use (rotation needs no restart). */
  signingSecretId?: string;
  /** CHATAPP_SIGNING_SECRET: the signing secret as a variable, which wins over the store's (docs/secrets.md). */
  signingSecret?: string;
  botTokenSecretId?: string;
  teamIdOverride?: string;
  apiUrl: string;
  historyMessages: number;
}

/** The chat settings from the environment: ids, and the signing secret only when it is set as a variable. */
export function chatAppSettings(env: ChatAppEnv): ChatAppSettings {
  return {
    signingSecretId: env.CHATAPP_SIGNING_SECRET_ID,
    signingSecret: env.CHATAPP_SIGNING_SECRET,
    botTokenSecretId: env.CHATAPP_BOT_TOKEN_SECRET_ID,
    teamIdOverride: env.CHATAPP_TEAM_ID,
    // The Web API client appends the method name to the base, which therefore ends with a slash.
    apiUrl: env.CHATAPP_API_URL.endsWith('/') ? env.CHATAPP_API_URL : `${env.CHATAPP_API_URL}/`,
    historyMessages: env.CHATAPP_HISTORY_MESSAGES,
  };
}

/**
 * The team-chat slice of a process that serves inbound chat requests (the API, `npm start`): a signing secret needs a
 * bot token to act on what it verifies.
 */
export const chatAppInbound = chatAppEnv.superRefine((env, ctx) => {
  const signing = env.CHATAPP_SIGNING_SECRET
    ? 'CHATAPP_SIGNING_SECRET'
    : env.CHATAPP_SIGNING_SECRET_ID
      ? 'CHATAPP_SIGNING_SECRET_ID'
      : undefined;
  if (!signing || env.CHATAPP_BOT_TOKEN_SECRET_ID) return;
  ctx.addIssue({
    code: 'custom',
    path: ['CHATAPP_BOT_TOKEN_SECRET_ID'],
    message: `required with ${signing}; set it, or unset the signing secret`,
  });
});

/** Where the signing secret may come from, for the start-up check of the rule "the variable wins" (docs/secrets.md). */
export function signingSecretSource(env: ChatAppEnv): EnvOrStoreSource {
  return { variable: 'CHATAPP_SIGNING_SECRET', id: env.CHATAPP_SIGNING_SECRET_ID, fromEnv: env.CHATAPP_SIGNING_SECRET };
}
