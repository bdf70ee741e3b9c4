import type { Connector, ConnectorName } from './contract';
import { createGithubConnector } from './github';
import { createNotionConnector } from './notion/index';
import { createSlackConnector } from './slack/index';

/** Builds a connector from the process environment (its own settings parsed with zod inside; ConfigError if bad). */
export type ConnectorFactory = (env: NodeJS.ProcessEnv) => Connector<unknown>;

/** Every connector by the name its schedule, CLI and cursor row use. */
const FACTORIES: Record<ConnectorName, ConnectorFactory> = {
  notion: (env) => createNotionConnector(env),
  slack: (env) => createSlackConnector(env),
  github: (env) => createGithubConnector(env),
};

/** Creates the named connector from the environment. */
export function createConnector(name: ConnectorName, env: NodeJS.ProcessEnv): Connector<unknown> {
  return FACTORIES[name](env);
}
