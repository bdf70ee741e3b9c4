import { z } from 'zod';
import { chatAppEnv } from '../chat-relay/config';
import { emptyAsUndefined, parseEnv, requireWhenAlone } from '../config/parse-env';
import { postgresEnv } from '../db/config';
import { queueEnvSchema } from '../queue/config';
import { modelEnv } from '../routing/config';
import { temporalEnv } from './config';

/** The worker's environment. The all-in-one stack extends it; `loadWorkerConfig` is for the worker alone. */
export const workerEnv = z.object({
  ...postgresEnv.shape,
  ...queueEnvSchema.shape,
  ...temporalEnv.shape,
  ...modelEnv.shape,
  ...chatAppEnv.shape,
  DATA_DIR: z.string().min(1).default('.data'),
  /** Job workspaces; shared storage when API and workers run on different machines. */
  WORKSPACE_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** The prebuilt workflow bundle; default dist/workflow-bundle.js under the project root (`npm run build`). */
  WORKFLOW_BUNDLE_PATH: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** How long in-flight activities may finish on shutdown, e.g. "10 seconds". */
  WORKER_SHUTDOWN_GRACE: z.string().min(1).default('10 seconds'),
  /** A worker alone serves `/healthz` here for its orchestrator's probes; unset, it listens on nothing. */
  WORKER_HTTP_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  WORKER_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
});
export type WorkerEnv = z.infer<typeof workerEnv>;

export function loadWorkerConfig(env: NodeJS.ProcessEnv): WorkerEnv {
  const schema = workerEnv.superRefine(requireWhenAlone(['POSTGRES_DSN', 'TEMPORAL_ADDRESS'], 'worker'));
  return parseEnv(schema, env, 'keel worker');
}
