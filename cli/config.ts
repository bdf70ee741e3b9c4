import { z } from 'zod';
import { emptyAsUndefined, parseEnv } from '../config/parse-env';
import { postgresEnv } from '../db/config';

/** The CLI's environment: where the API is and who it acts as; the database only for `token create`. */
export const cliEnv = z.object({
  ...postgresEnv.shape,
  /** Defaults to the API of a running `npm start`, else http://127.0.0.1:3000. */
  KEEL_API_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** Defaults to the dev token of the local stack (DATA_DIR/dev-token). */
  KEEL_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  DATA_DIR: z.string().min(1).default('.data'),
  /** Colours and symbols in `keel job` output; NO_COLOR (any value) turns colours off. */
  NO_COLOR: z.preprocess(emptyAsUndefined, z.string().optional()),
});
export type CliEnv = z.infer<typeof cliEnv>;

export function loadCliConfig(env: NodeJS.ProcessEnv = process.env): CliEnv {
  return parseEnv(cliEnv, env, 'keel');
}
