import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';
import { readEnvOrStore, type ConfigWarning } from '../secrets/env-or-store';
import { SecretIdSchema } from '../secrets/id';
import type { SecretStore } from '../secrets/store';

/** The shortest secret accepted: 32 characters, as for the other deployment secrets that sign things. */
const MIN_SECRET_CHARS = 32;

/**
 * The answer-link slice of the API's and the worker's environment (docs/answer-links.md). Both ends need the same
 * secret and base URL: the worker mints links into events, the API checks them when a person opens one.
 */
export const answerLinkEnv = z.object({
  /**
   * The ingest API's address as a person outside Keel reaches it (the page is served there, under /answer/). Default:
   * the API's own loopback address (`http://127.0.0.1:<API_PORT>`), which only works on the machine itself.
   */
  ANSWER_LINK_BASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  /** How long a link works after its event was appended, seconds (default 7 days). */
  ANSWER_LINK_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(90 * 86_400)
    .default(7 * 86_400),
  /** The signing secret, as a variable; the secrets store (id ANSWER_LINK_SECRET) is the recommended place. */
  ANSWER_LINK_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(MIN_SECRET_CHARS, `at least ${MIN_SECRET_CHARS} characters`).optional(),
  ),
  /** Another store id for the secret (default ANSWER_LINK_SECRET). */
  ANSWER_LINK_SECRET_ID: z.preprocess(emptyAsUndefined, SecretIdSchema.optional()),
});
export type AnswerLinkEnv = z.infer<typeof answerLinkEnv>;

/** What minting and checking a link need; absent from a process's deps: answer links are off there. */
export interface AnswerLinkSettings {
  /** Where `/answer/<token>` is served, without a trailing slash. */
  baseUrl: string;
  ttlSeconds: number;
  secret: string;
}

/**
 * The settings of a process from its slice, reading the secret by the deployment-secret rule (the variable, else the
 * store; docs/secrets.md). With neither, `generatedSecretFile` (npm start: a file under DATA_DIR) is read, or created
 * with a random secret; without it the links are off (undefined), with a warning saying what to set.
 */
export async function resolveAnswerLinks(
  env: AnswerLinkEnv,
  store: SecretStore,
  options: { defaultBaseUrl: string; generatedSecretFile?: string },
): Promise<{ settings?: AnswerLinkSettings; warnings: ConfigWarning[] }> {
  const id = env.ANSWER_LINK_SECRET_ID ?? 'ANSWER_LINK_SECRET';
  const read = await readEnvOrStore(
    { variable: 'ANSWER_LINK_SECRET', id, ...(env.ANSWER_LINK_SECRET ? { fromEnv: env.ANSWER_LINK_SECRET } : {}) },
    store,
  );
  const warnings = [...read.warnings];
  let secret = read.value;
  if (secret !== undefined && secret.length < MIN_SECRET_CHARS) {
    warnings.push({
      variable: 'ANSWER_LINK_SECRET',
      message: `the answer-link secret (store id ${id}) is shorter than ${MIN_SECRET_CHARS} characters: answer links are off`,
    });
    return { warnings };
  }
  if (secret === undefined && options.generatedSecretFile) secret = await generatedSecret(options.generatedSecretFile);
  if (secret === undefined) {
    warnings.push({
      variable: 'ANSWER_LINK_SECRET',
      message: `no answer-link secret (variable ANSWER_LINK_SECRET or store id ${id}): events carry no answer_url (docs/answer-links.md)`,
    });
    return { warnings };
  }
  const baseUrl = (env.ANSWER_LINK_BASE_URL ?? options.defaultBaseUrl).replace(/\/+$/, '');
  return { settings: { baseUrl, ttlSeconds: env.ANSWER_LINK_TTL_SECONDS, secret }, warnings };
}

/** npm start's secret: kept in a file of its own so links stay valid across restarts. */
async function generatedSecret(file: string): Promise<string> {
  try {
    const existing = (await fs.readFile(file, 'utf8')).trim();
    if (existing.length >= MIN_SECRET_CHARS) return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = crypto.randomBytes(32).toString('base64url');
  await fs.writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
