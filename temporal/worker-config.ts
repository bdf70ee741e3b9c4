import { z } from 'zod';
import { webhookEnv } from '../webhooks/config';
import { mcpClientEnv } from '../mcp/config';
import { answerLinkEnv } from '../answer-links/config';
import { chatAppEnv } from '../chat-relay/config';
import { emptyAsUndefined, parseEnv, requireWhenAlone } from '../config/parse-env';
import { postgresEnv } from '../db/config';
import { queueEnvSchema } from '../queue/config';
import { modelEnv } from '../routing/config';
import { jobTaskQueue, temporalEnv } from './config';
import { blobGcEnv, blobStoreEnv } from '../snapshots/config';
import { WORKER_VERSIONING_MODES, type WorkerVersioning } from './versioning';

/** The worker's environment. The all-in-one stack extends it; `loadWorkerConfig` is for the worker alone. */
export const workerEnv = z.object({
  ...postgresEnv.shape,
  ...queueEnvSchema.shape,
  ...temporalEnv.shape,
  ...modelEnv.shape,
  ...webhookEnv.shape,
  ...mcpClientEnv.shape,
  ...answerLinkEnv.shape,
  ...chatAppEnv.shape,
  ...blobStoreEnv.shape,
  ...blobGcEnv.shape,
  DATA_DIR: z.string().min(1).default('.data'),
  /**
   * The identity service, for escalations to name the people behind `project_owners` and `role:<name>`
   * (docs/reminders.md); its internal token is IDENTITY_INTERNAL_TOKEN, the variable or else the secrets store's
   * (another id through IDENTITY_INTERNAL_TOKEN_SECRET_ID), read at each escalation. Unset: escalations name the target.
   */
  IDENTITY_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  IDENTITY_INTERNAL_TOKEN: z.preprocess(
    emptyAsUndefined,
    z.string().min(32).regex(/^\S+$/, 'no whitespace').optional(),
  ),
  IDENTITY_INTERNAL_TOKEN_SECRET_ID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** Job workspaces; shared storage when API and workers run on different machines. */
  WORKSPACE_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** The prebuilt workflow bundle; default dist/workflow-bundle.js under the project root (`npm run build`). */
  WORKFLOW_BUNDLE_PATH: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** How long in-flight activities may finish on shutdown, e.g. "10 seconds". */
  WORKER_SHUTDOWN_GRACE: z.string().min(1).default('10 seconds'),
  /** A worker alone serves `/healthz` here for its orchestrator's probes; unset, it listens on nothing. */
  WORKER_HTTP_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  WORKER_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * The loopback port of the Temporal SDK's Prometheus exporter, which this process's `/metrics` reads and appends:
   * 0 (the default) a free one picked at start, `off` no exporter (the SDK's series then leave `/metrics`).
   */
  TEMPORAL_SDK_METRICS_PORT: z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]).default(0),
  /**
   * `pinned`: poll as a version of a worker deployment and pin every job to the version it started on
   * (docs/deployment.md, "Deploying workflow changes"); `off` (the default): unversioned, as `npm start` runs.
   */
  KEEL_WORKER_VERSIONING: z.enum(WORKER_VERSIONING_MODES).default('off'),
  /** The worker deployment's name; default the job task queue's name, so two Keel instances never share one. */
  KEEL_WORKER_DEPLOYMENT: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** This worker's build id; default a hash of the workflow bundle it runs (a new id exactly when the code changes). */
  KEEL_WORKER_BUILD_ID: z.preprocess(emptyAsUndefined, z.string().min(1).max(255).optional()),
  /**
   * Make this worker's version the current one once it polls, unless a newer version already is; `false` when a deploy
   * step does it instead (`temporal worker deployment set-current-version`).
   */
  KEEL_WORKER_PROMOTE: z.preprocess(emptyAsUndefined, z.stringbool().default(true)),
});
export type WorkerEnv = z.infer<typeof workerEnv>;

export function loadWorkerConfig(env: NodeJS.ProcessEnv): WorkerEnv {
  const schema = workerEnv.superRefine(requireWhenAlone(['POSTGRES_DSN', 'TEMPORAL_ADDRESS'], 'worker'));
  return parseEnv(schema, env, 'keel worker');
}

/** The worker's versioning from its env: undefined when `KEEL_WORKER_VERSIONING` is off. */
export function workerVersioning(
  env: Pick<
    WorkerEnv,
    | 'KEEL_WORKER_VERSIONING'
    | 'KEEL_WORKER_DEPLOYMENT'
    | 'KEEL_WORKER_BUILD_ID'
    | 'KEEL_WORKER_PROMOTE'
    | 'JOB_QUEUE_KEY'
  > & { KEEL_INSTANCE_ID: string },
): WorkerVersioning | undefined {
  if (env.KEEL_WORKER_VERSIONING === 'off') return undefined;
  return {
    deploymentName: env.KEEL_WORKER_DEPLOYMENT ?? jobTaskQueue(env),
    buildId: env.KEEL_WORKER_BUILD_ID,
    promote: env.KEEL_WORKER_PROMOTE,
  };
}
