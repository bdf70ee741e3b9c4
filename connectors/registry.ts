import type { Connector, ConnectorName } from './contract';
import { githubConnector } from './github';
import { notionConnector } from './notion/index';
import { settingsOrThrow, type ConnectorsConfig } from './settings';
import { slackConnector } from './slack/index';

/** Builds a connector from the settings parsed at start; ConfigError (its problems) when they were bad. */
export type ConnectorFactory = (config: ConnectorsConfig) => Connector<unknown>;

/** Every connector by the name its schedule, CLI and cursor row use. */
const FACTORIES: Record<ConnectorName, ConnectorFactory> = {
  notion: (config) => notionConnector(settingsOrThrow(config.notion)),
  slack: (config) => slackConnector(settingsOrThrow(config.slack)),
  github: (config) => githubConnector(settingsOrThrow(config.github)),
};

/** Creates the named connector from the process's parsed connector settings. */
export function createConnector(name: ConnectorName, config: ConnectorsConfig): Connector<unknown> {
  return FACTORIES[name](config);
}
