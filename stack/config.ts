import { z } from 'zod';
import { apiEnv } from '../api/config';
import { apiSecretSources, readApiSecrets } from '../api/start-secrets';
import { chatAppInbound } from '../chat-relay/config';
import { configError, emptyAsUndefined, parseEnv } from '../config/parse-env';
import { connectorsConfig, type ConnectorsConfig } from '../connectors/settings';
import { productsConfig } from '../products/config';
import type { ProductSettings } from '../products/settings';
import { kbSettings, type KbEnv } from '../kb/config';
import { modelEnv, type ModelsConfig } from '../routing/config';
import { consoleEnv } from '../console/server/config';
import { workerEnv } from '../temporal/worker-config';
import { stackIdentityEnv, type StackIdentityEnv } from './identity-config';
import { secretsConfig, type SecretsSettings } from '../secrets/config';
import type { ConfigWarning } from '../secrets/env-or-store';
import { createSecretStore } from '../secrets/store';
import { telemetryEnv, type TelemetryEnv } from '../telemetry/config';
import { consoleOrgId } from './console-org';
import { loadSlicesWithModels } from './models-slice';

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
  /** The admin created on the first start when the identity service has none (password in DATA_DIR/console-admin). */
  CONSOLE_ADMIN_EMAIL: z.email().default('admin@keel.localhost'),
});
export type StackEnv = z.infer<typeof stackEnv>;

const optionalUnderStack = <T extends z.ZodType>(schema: T) => z.preprocess(emptyAsUndefined, schema.optional());

/**
 * The console's slice of `npm start`: its own variables (console/server/config.ts); where the identity service and the
 * API are, and the console's API token, are the stack's own unless set; the org the stack registers that token in.
 */
export const stackConsoleEnv = consoleEnv.extend({
  IDENTITY_URL: optionalUnderStack(consoleEnv.shape.IDENTITY_URL),
  INGEST_API_URL: optionalUnderStack(consoleEnv.shape.INGEST_API_URL),
  CONSOLE_API_TOKEN: optionalUnderStack(consoleEnv.shape.CONSOLE_API_TOKEN),
  CONSOLE_ORG_ID: consoleOrgId,
});
export type StackConsoleEnv = z.infer<typeof stackConsoleEnv>;

/** `npm start`'s own variables alone (the API's and the worker's with the embedded pieces'). */
export function loadStackConfig(env: NodeJS.ProcessEnv): StackEnv {
  return parseEnv(stackEnv, env, 'keel start');
}

/** Everything `npm start` runs on: its own variables and the slices of the knowledge hub, connectors, identity, models. */
export interface StartConfig {
  stack: StackEnv;
  kb: KbEnv;
  connectors: ConnectorsConfig;
  identity: StackIdentityEnv;
  models: ModelsConfig;
  products: ProductSettings;
  console: StackConsoleEnv;
  secrets: SecretsSettings;
  telemetry: TelemetryEnv;
  /** What the API should warn about once it has its logger (the identity service warns about its own secrets). */
  warnings: ConfigWarning[];
}

/**
 * Parses every variable `npm start` uses, once, before the dev server, the database or anything else starts; every bad
 * variable of every slice is in the one message.
 */
export async function loadConfig(env: NodeJS.ProcessEnv): Promise<StartConfig> {
  const sliced = await loadSlicesWithModels(
    'keel start',
    {
      stack: stackEnv,
      models: modelEnv,
      kb: kbSettings,
      chat: chatAppInbound,
      connectors: connectorsConfig,
      identity: stackIdentityEnv,
      products: productsConfig,
      console: stackConsoleEnv,
      secrets: secretsConfig,
      apiSecrets: apiSecretSources,
      telemetry: telemetryEnv,
    },
    env,
  );
  const { stack, kb, connectors, identity, models, products, console, secrets, telemetry, apiSecrets } = sliced;
  // The API's end of the identity service's internal token follows the rule of every deployment secret.
  const { internalToken, problems, warnings } = await readApiSecrets(apiSecrets, stack, createSecretStore(secrets));
  if (problems.length > 0) throw configError('keel start', problems);
  return {
    stack: { ...stack, IDENTITY_INTERNAL_TOKEN: internalToken },
    kb,
    connectors,
    identity,
    models,
    products,
    console,
    secrets,
    telemetry,
    warnings,
  };
}
