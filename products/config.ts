/**
 * The product-build settings of a worker: build limits, the Vercel API and the deploy token's secret id. Parsed
 * by the entry points only (`loadProductsConfig(process.env, …)`), like every process's configuration.
 */
import { z } from 'zod';
import { emptyAsUndefined, parseEnv } from '../config/parse-env';
import { DEFAULT_BUILD_LIMITS } from './build-runner';
import { SecretIdSchema } from '../secrets/id';
import { DEFAULT_VERCEL_TOKEN_SECRET, type ProductSettings } from './settings';
import { VERCEL_API_URL } from './vercel';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUndefined, schema.optional());
const withDefault = <T extends z.ZodType>(schema: T, value: z.input<T>) =>
  z.preprocess(emptyAsUndefined, schema.default(value as never));

export const productsEnv = z.object({
  /** Per build or test command (ms); past it the command's whole process group is killed. */
  BUILD_TIMEOUT_MS: withDefault(z.coerce.number().int().min(1_000).max(3_600_000), DEFAULT_BUILD_LIMITS.timeoutMs),
  /** Combined output a command may print before it is killed (bytes). */
  BUILD_OUTPUT_CAP_BYTES: withDefault(
    z.coerce.number().int().min(10_000).max(100_000_000),
    DEFAULT_BUILD_LIMITS.outputCapBytes,
  ),
  /** Vercel's REST API (a proxy or a local server in tests). */
  VERCEL_API_URL: withDefault(z.url(), VERCEL_API_URL),
  /** Deploy on behalf of this team. */
  VERCEL_TEAM_ID: optional(z.string().min(1)),
  /** Readiness polling of a deployment: interval and give-up time (ms). */
  VERCEL_POLL_MS: withDefault(z.coerce.number().int().min(100).max(60_000), 2_000),
  VERCEL_READY_TIMEOUT_MS: withDefault(z.coerce.number().int().min(1_000).max(3_600_000), 300_000),
  /** The id of the deploy token in the secrets store (secrets/), read at each deploy. */
  VERCEL_TOKEN_SECRET_ID: withDefault(SecretIdSchema, DEFAULT_VERCEL_TOKEN_SECRET),
  /** The token itself is never a deployment variable; refused rather than ignored, so a deployment notices. */
  VERCEL_TOKEN: optional(
    z.undefined({
      error: `not read: put the token in the secrets store as secret ${DEFAULT_VERCEL_TOKEN_SECRET} (docs/secrets.md)`,
    }),
  ),
});

/** The worker's product-build slice: parsed with every other slice before anything opens (stack/*-config.ts). */
export const productsConfig = productsEnv.transform((parsed): ProductSettings => ({
  buildLimits: {
    timeoutMs: parsed.BUILD_TIMEOUT_MS,
    outputCapBytes: parsed.BUILD_OUTPUT_CAP_BYTES,
    tailBytes: DEFAULT_BUILD_LIMITS.tailBytes,
  },
  vercel: {
    apiUrl: parsed.VERCEL_API_URL,
    teamId: parsed.VERCEL_TEAM_ID,
    pollIntervalMs: parsed.VERCEL_POLL_MS,
    readyTimeoutMs: parsed.VERCEL_READY_TIMEOUT_MS,
    tokenSecretId: parsed.VERCEL_TOKEN_SECRET_ID,
  },
}));

/** The slice alone, for tests and tools: one line per bad variable, like every process's config. */
export function loadProductsConfig(env: NodeJS.ProcessEnv, processName: string): ProductSettings {
  return parseEnv(productsConfig, env, processName);
}
