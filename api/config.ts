import { z } from 'zod';
import { chatAppEnv } from '../chat-relay/config';
import { emptyAsUndefined, parseEnv, requireWhenAlone } from '../config/parse-env';
import { postgresEnv } from '../db/config';
import { queueEnvSchema } from '../queue/config';
import { modelEnv } from '../routing/config';
import { temporalEnv } from '../temporal/config';
import { blobStoreEnv } from '../snapshots/config';
import { webhookEnv } from '../webhooks/config';
import { answerLinkEnv } from '../answer-links/config';
import { schedulingEnv } from '../jobs/scheduling';

/** The ingest API's environment. The all-in-one stack extends it; `loadApiConfig` is for the API alone. */
export const apiEnv = z.object({
  ...postgresEnv.shape,
  ...queueEnvSchema.shape,
  ...temporalEnv.shape,
  ...modelEnv.shape,
  ...chatAppEnv.shape,
  ...blobStoreEnv.shape,
  ...webhookEnv.shape,
  ...answerLinkEnv.shape,
  ...schedulingEnv.shape,
  /** 0.0.0.0 in a container; loopback by default so a laptop does not expose the API. */
  API_HOST: z.string().min(1).default('127.0.0.1'),
  API_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Embedded data (PGlite, Temporal SQLite, job workspaces) lives here. */
  DATA_DIR: z.string().min(1).default('.data'),
  /** Job workspaces written by workers (shared storage when they run elsewhere); default DATA_DIR/workspaces. */
  WORKSPACE_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** Requests per minute per user and per org, shared by all replicas through the queue store. */
  RATE_LIMIT_USER_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_ORG_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  /** SSE heartbeat comment interval (ms). */
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(1000).default(15_000),
  /** How often an idle SSE stream re-reads the database in case a live message was lost (ms). */
  STREAM_POLL_MS: z.coerce.number().int().min(100).default(2_000),
  /** Per-job cost ceiling in USD: a call that would pass it pauses the job for a budget decision (docs/budgets.md). */
  JOB_BUDGET_USD: z.coerce.number().positive().default(5),
  /** The highest per-job ceiling a submission may ask for (`budget_usd` of POST /v1/chat), in USD. */
  JOB_BUDGET_MAX_USD: z.coerce.number().positive().default(50),
  /** While a model call runs, its level emits a `heartbeat` event this often (ms). */
  LEVEL_HEARTBEAT_MS: z.coerce.number().int().min(100).default(15_000),
  /**
   * How soon a submission, cancel or signal has its 503 `queue_unavailable` while Temporal is unreachable (ms). A
   * reachable Temporal that takes longer to start a job is answered 503 too (docs/failure-modes.md).
   */
  TEMPORAL_DOWN_ANSWER_MS: z.coerce.number().int().min(200).max(60_000).default(2_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * The identity service's schema when it shares this database: run submissions are then refused with 402 for a
   * non-admin over their monthly budget (docs/identity.md). Unset: no budget gate.
   */
  IDENTITY_SCHEMA: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/)
      .optional(),
  ),
  /**
   * The identity service's address when it keeps its own database: submissions read each user's role, budget and
   * status from its internal endpoint (`GET /internal/budget-policy`), authenticated with IDENTITY_INTERNAL_TOKEN
   * (the identity service's INTERNAL_API_TOKEN). Set both or neither; with them, IDENTITY_SCHEMA is not used. The
   * token may be this variable or a file in the secrets store, read at start (api/start-secrets.ts; docs/secrets.md).
   */
  IDENTITY_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  IDENTITY_INTERNAL_TOKEN: z.preprocess(
    emptyAsUndefined,
    z.string().min(32).regex(/^\S+$/, 'no whitespace').optional(),
  ),
  /** The identity service's DEFAULT_BUDGET_USD, for an approved user without a budget of their own. */
  DEFAULT_BUDGET_USD: z.coerce.number().min(0).default(25),
});
export type ApiEnv = z.infer<typeof apiEnv>;

/** The API on its own (production): it needs a real database and a real Temporal. */
export function loadApiConfig(env: NodeJS.ProcessEnv): ApiEnv {
  const schema = apiEnv
    .superRefine(requireWhenAlone(['POSTGRES_DSN', 'TEMPORAL_ADDRESS'], 'API'))
    .superRefine((value, ctx) => {
      if (Boolean(value.IDENTITY_URL) !== Boolean(value.IDENTITY_INTERNAL_TOKEN)) {
        ctx.addIssue({
          code: 'custom',
          path: [value.IDENTITY_URL ? 'IDENTITY_INTERNAL_TOKEN' : 'IDENTITY_URL'],
          message: 'IDENTITY_URL and IDENTITY_INTERNAL_TOKEN go together: set both or neither',
        });
      }
      if (value.JOB_BUDGET_MAX_USD < value.JOB_BUDGET_USD) {
        ctx.addIssue({
          code: 'custom',
          path: ['JOB_BUDGET_MAX_USD'],
          message: `must be at least JOB_BUDGET_USD (${value.JOB_BUDGET_USD}): the default ceiling is one a job may have`,
        });
      }
    });
  return parseEnv(schema, env, 'keel api');
}
