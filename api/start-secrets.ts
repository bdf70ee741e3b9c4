import { z } from 'zod';
import { signingSecretSource, type ChatAppEnv } from '../chat-relay/config';
import { envOrStoreSource, readEnvOrStore, type ConfigWarning } from '../secrets/env-or-store';
import type { SecretStore } from '../secrets/store';
import { apiEnv } from './config';

/**
 * The ingest API's end of the token it shares with the identity service (there INTERNAL_API_TOKEN): the variable
 * IDENTITY_INTERNAL_TOKEN or the store's IDENTITY_INTERNAL_TOKEN (another id through IDENTITY_INTERNAL_TOKEN_SECRET_ID,
 * e.g. INTERNAL_API_TOKEN to mount the identity service's own file); the variable wins. The same rule as the identity
 * service's end (docs/secrets.md).
 */
export const IDENTITY_INTERNAL_TOKEN_SECRET = {
  variable: 'IDENTITY_INTERNAL_TOKEN',
  idVariable: 'IDENTITY_INTERNAL_TOKEN_SECRET_ID',
} as const;

/**
 * The API's slice: where IDENTITY_INTERNAL_TOKEN may come from (its value is checked by the API's own slice). Neither it
 * nor CHATAPP_SIGNING_SECRET ever depended on KEEL_SECRETS_FROM_ENV, so there is no deprecation to warn of here.
 */
export const apiSecretSources = z
  .custom<NodeJS.ProcessEnv>()
  .transform((env, ctx) => ({ internalToken: envOrStoreSource(env, IDENTITY_INTERNAL_TOKEN_SECRET, ctx) }));
export type ApiSecretSources = z.output<typeof apiSecretSources>;

/**
 * The API's deployment secrets as read at start (the API alone and `npm start`): the internal token (variable, else
 * store), and the warnings of the rule for it and the chat signing secret, whose store value is otherwise read at each
 * request. A stored token that its rule refuses is a problem line naming the secret, never its value.
 */
export async function readApiSecrets(
  sources: ApiSecretSources,
  chat: ChatAppEnv,
  store: SecretStore,
): Promise<{ internalToken?: string; problems: string[]; warnings: ConfigWarning[] }> {
  const problems: string[] = [];
  const token = await readEnvOrStore(sources.internalToken, store);
  const signing = await readEnvOrStore(signingSecretSource(chat), store);
  const warnings = [...token.warnings, ...signing.warnings];
  if (token.from !== 'store') return { internalToken: token.value, problems, warnings };
  // The variable was checked with the rest of the API's variables; a stored value is checked here by the same rule.
  const checked = apiEnv.shape.IDENTITY_INTERNAL_TOKEN.safeParse(token.value);
  if (checked.success) return { internalToken: checked.data, problems, warnings };
  problems.push(
    `  IDENTITY_INTERNAL_TOKEN (secret ${sources.internalToken.id}): ${checked.error.issues.map((i) => i.message).join('; ')}`,
  );
  return { problems, warnings };
}
