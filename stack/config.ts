import { z } from 'zod';
import { apiEnv } from '../api/config';
import { emptyAsUndefined, parseEnv } from '../config/parse-env';
import { workerEnv } from '../temporal/worker-config';

/** `npm start`: the API and a worker in one process, with embedded Temporal and PostgreSQL unless configured. */
export const stackEnv = apiEnv.extend(workerEnv.shape).extend({
  /** Dev-server frontend and Web UI ports (only when TEMPORAL_ADDRESS is unset). */
  TEMPORAL_DEV_PORT: z.coerce.number().int().min(1).max(65535).default(7233),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  /** Loopback port of the embedded PostgreSQL (only when POSTGRES_DSN is unset); 0 picks a free one. */
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /**
   * `off` with no POSTGRES_DSN runs Keel without any database: the API serves workflows from the queue store and
   * nothing else (no worker, no Temporal); for working on clients of the workflow list.
   */
  KEEL_EMBEDDED_DB: z.enum(['on', 'off']).default('on'),
  /** The admin dev token to seed; otherwise one is generated once and kept in DATA_DIR/dev-token. */
  KEEL_DEV_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(16).optional()),
});
export type StackEnv = z.infer<typeof stackEnv>;

export function loadStackConfig(env: NodeJS.ProcessEnv = process.env): StackEnv {
  return parseEnv(stackEnv, env, 'keel start');
}
