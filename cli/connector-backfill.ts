// `keel connector backfill --connector slack --export <dir> --channel <id|name>`: the core's `keel connector` command
// parses its own flags and hands the rest here with a function that runs a connector the way a scheduled run does.
import { parseArgs } from 'node:util';
import type { Connector } from '../connectors/contract';
import { createSlackBackfillConnector } from '../connectors/slack/backfill';
import type { SlackConfig } from '../connectors/slack/config';
import type { SlackCursor } from '../connectors/slack/index';
import { settingsOrThrow, type ConnectorSettings } from '../connectors/settings';

export interface SlackBackfillArgs {
  /** The rest of the command line, e.g. `['--export', './export', '--channel', 'general']`. */
  argv: readonly string[];
  /** The Slack connector's settings as the command parsed them (its ConfigError when they were bad). */
  slack: ConnectorSettings<SlackConfig>;
  /** The core's run (clone, idempotent writes, cursor persistence, re-index) over any connector. */
  runConnector: (connector: Connector<SlackCursor>) => Promise<void>;
}

export const SLACK_BACKFILL_USAGE =
  'usage: keel connector backfill --connector slack --export <dir> --channel <id|name>';

/** Re-seeds one allowlisted channel from a workspace export; throws with the usage line on bad arguments. */
export async function runSlackBackfill(args: SlackBackfillArgs): Promise<void> {
  const { values } = parseArgs({
    args: [...args.argv],
    options: { export: { type: 'string' }, channel: { type: 'string' }, connector: { type: 'string' } },
    strict: true,
  });
  if (!values.export || !values.channel) throw new Error(SLACK_BACKFILL_USAGE);
  if (values.connector !== undefined && values.connector !== 'slack')
    throw new Error(`backfill supports only slack\n${SLACK_BACKFILL_USAGE}`);
  await args.runConnector(
    createSlackBackfillConnector(settingsOrThrow(args.slack), { exportDir: values.export, channel: values.channel }),
  );
}
