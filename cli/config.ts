import { z } from 'zod';
import { configError, emptyAsUndefined, parseEnv, parseSlices } from '../config/parse-env';
import { connectorsConfig, type ConnectorsConfig } from '../connectors/settings';
import { kbSettings, type KbEnv } from '../kb/config';
import { temporalEnv, type TemporalEnv } from '../temporal/config';
import { postgresEnv } from '../db/config';
import { secretsConfig, type SecretsSettings } from '../secrets/config';

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

export function loadCliConfig(env: NodeJS.ProcessEnv): CliEnv {
  return parseEnv(cliEnv, env, 'keel');
}

/** `keel kb …`: the CLI's variables and the knowledge hub's. */
export interface KbCommandConfig {
  cli: CliEnv;
  kb: KbEnv;
}

export function loadKbCommandConfig(env: NodeJS.ProcessEnv): KbCommandConfig {
  const { values, problems } = parseSlices({ cli: cliEnv, kb: kbSettings }, env);
  if (problems.length > 0 || !values.cli || !values.kb) throw configError('keel kb', problems);
  return { cli: values.cli, kb: values.kb };
}

/** `keel connector …`: the CLI's variables, the knowledge hub's, the connectors', the secrets store's and how to reach Temporal. */
export interface ConnectorCommandConfig extends KbCommandConfig {
  connectors: ConnectorsConfig;
  temporal: TemporalEnv;
  secrets: SecretsSettings;
}

export function loadConnectorCommandConfig(env: NodeJS.ProcessEnv): ConnectorCommandConfig {
  const { values, problems } = parseSlices(
    { cli: cliEnv, kb: kbSettings, connectors: connectorsConfig, temporal: temporalEnv, secrets: secretsConfig },
    env,
  );
  const { cli, kb, connectors, temporal, secrets } = values;
  if (problems.length > 0 || !cli || !kb || !connectors || !temporal || !secrets) {
    throw configError('keel connector', problems);
  }
  return { cli, kb, connectors, temporal, secrets };
}
