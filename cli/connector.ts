// `keel connector run|trigger|reset`: a connector run in this process, a one-off run on the workers, a cursor reset.
import { createSecretStore } from '../secrets/store';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { ConnectorNameSchema } from '../connectors/config';
import type { Connector, ConnectorName } from '../connectors/contract';
import { runConnectorOnce, type RunReport } from '../connectors/run-once';
import { resetConnectorCursor } from '../connectors/state-store';
import { migrate } from '../db/migrate';
import { readStackState } from '../stack/state-file';
import { temporalSettings } from '../temporal/config';
import { connectClient } from '../temporal/connection';
import { triggerConnectorRun } from '../temporal/connector-schedules';
import type { ConnectorCommandConfig } from './config';
import { runSlackBackfill, SLACK_BACKFILL_USAGE } from './connector-backfill';
import { CommandFailed } from './command-failed';
import { withHub, type OpenDatabase } from './with-hub';
import { CONNECTOR_USAGE } from './command-usage';

function connectorName(value: string | undefined): ConnectorName {
  const parsed = ConnectorNameSchema.safeParse(value);
  if (!parsed.success) throw new CommandFailed(`a connector is one of notion, slack, github\n\n${CONNECTOR_USAGE}`);
  return parsed.data;
}

export async function runConnectorCommand(
  config: ConnectorCommandConfig,
  args: string[],
  openDatabase: OpenDatabase,
): Promise<number> {
  const { cli: env } = config;
  const [sub, ...rest] = args;
  if (sub === 'backfill') {
    let report: RunReport | undefined;
    try {
      await runSlackBackfill({
        argv: rest,
        slack: config.connectors.slack,
        runConnector: async (connector) => {
          report = await runHere(config, 'slack', openDatabase, connector);
        },
      });
    } catch (err) {
      if ((err as Error).message.includes(SLACK_BACKFILL_USAGE)) throw new CommandFailed((err as Error).message);
      throw err;
    }
    return report && report.indexProblems.length > 0 ? 1 : 0;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { connector: { type: 'string' }, wait: { type: 'boolean', default: false } },
  });
  if (sub === 'trigger') return trigger(config, connectorName(values.connector ?? positionals[0]), values.wait);
  const name = connectorName(values.connector ?? positionals[0]);
  if (sub === 'reset') {
    const database = await openDatabase(env);
    try {
      await migrate(database.pool, env.POSTGRES_SCHEMA);
      const had = await resetConnectorCursor(database.pool, name);
      console.log(had ? `cursor of ${name} reset` : `${name} had no stored cursor`);
      return 0;
    } finally {
      await database.close();
    }
  }
  if (sub !== 'run') throw new CommandFailed(`unknown command: connector ${args.join(' ')}\n\n${CONNECTOR_USAGE}`);
  const report = await runHere(config, name, openDatabase);
  return report.indexProblems.length > 0 ? 1 : 0;
}

/** A whole run in this process (the registry's connector, or `connector`), printing what it wrote. */
async function runHere(
  config: ConnectorCommandConfig,
  name: ConnectorName,
  openDatabase: OpenDatabase,
  connector?: Connector<unknown>,
): Promise<RunReport> {
  return withHub(
    config,
    openDatabase,
    async ({ hub, warning, pool }) => {
      if (warning) throw new CommandFailed(warning);
      const report = await runConnectorOnce({
        name,
        config: config.connectors,
        secrets: createSecretStore(config.secrets),
        pool,
        index: { pool: hub.pool, embedder: hub.embedder, unavailable: hub.unavailable },
        connector,
        log: (line) => console.error(line),
        progress: ({ records, bytes }) => process.stderr.write(`\r${records ?? 0} records, ${bytes ?? 0} bytes`),
      });
      process.stderr.write('\n');
      for (const path of report.written) console.log(`written    ${path}`);
      for (const problem of report.indexProblems) console.log(`invalid    ${problem.path}: ${problem.error}`);
      console.log(
        `${name}: ${report.records} records, ${report.written.length} written, ${report.unchanged} unchanged, ${report.bytes} bytes`,
      );
      return report;
    },
    (pool) => migrate(pool, config.cli.POSTGRES_SCHEMA),
  );
}

async function trigger(config: ConnectorCommandConfig, name: ConnectorName, wait: boolean): Promise<number> {
  const { temporal } = config;
  const address = temporal.TEMPORAL_ADDRESS ?? readStackState(config.cli.DATA_DIR)?.temporal_address;
  if (!address) throw new CommandFailed('no Temporal to reach: set TEMPORAL_ADDRESS, or start Keel with `npm start`');
  const connection = await connectClient(temporalSettings(temporal, address, (p) => fs.readFileSync(p)));
  const { client } = connection;
  try {
    const { workflowId } = await triggerConnectorRun(client, name);
    console.log(`connector ${name}: run ${workflowId}`);
    if (!wait) return 0;
    console.log(JSON.stringify(await client.workflow.getHandle(workflowId).result(), null, 2));
    return 0;
  } finally {
    await connection.close();
  }
}
