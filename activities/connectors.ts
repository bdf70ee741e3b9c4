import { noSecrets, type SecretStore } from '../secrets/store';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Pool } from 'pg';
import { ConfigError } from '../config/parse-env';
import {
  CONNECTOR_FAILED,
  CONNECTOR_NOT_CONFIGURED,
  type ConnectorRunInput,
  type ConnectorRunResult,
} from '../connectors/definitions';
import { RecordInvalidError } from '../connectors/hub-writer';
import { runConnectorOnce } from '../connectors/run-once';
import { CursorInvalidError } from '../connectors/run';
import { connectorsConfig, type ConnectorsConfig } from '../connectors/settings';
import type { KnowledgeHub } from '../kb/hub';
import { connectorRecords, connectorRuns } from '../metrics/series';

/** While a long step (a clone) reports nothing, the last progress is heartbeated this often. */
const HEARTBEAT_EVERY_MS = 20_000;

/** Failures that no retry can fix: they need an operator. */
const PERMANENT = [ConfigError, CursorInvalidError, RecordInvalidError];

export function connectorActivities(deps: {
  pool: Pool;
  kb?: KnowledgeHub;
  connectors?: ConnectorsConfig;
  secrets?: SecretStore;
}) {
  return {
    /**
     * A full connector run (connectors/run-once.ts) with its progress heartbeated as `{ records, bytes, note }`.
     * Idempotent: a retry starts from the stored cursor and rewrites nothing already identical.
     */
    async syncConnector(input: ConnectorRunInput): Promise<ConnectorRunResult> {
      const context = Context.current();
      if (!deps.kb) {
        throw ApplicationFailure.create({
          type: CONNECTOR_NOT_CONFIGURED,
          message: 'this worker has no knowledge hub to index connector output into',
          nonRetryable: false,
        });
      }
      let progress: { records: number; bytes: number; note?: string } = { records: 0, bytes: 0 };
      const beat = setInterval(() => context.heartbeat(progress), HEARTBEAT_EVERY_MS);
      try {
        const report = await runConnectorOnce({
          name: input.connector,
          config: deps.connectors ?? connectorsConfig.parse({}),
          secrets: deps.secrets ?? noSecrets,
          pool: deps.pool,
          index: { pool: deps.kb.pool, embedder: deps.kb.embedder, unavailable: deps.kb.unavailable },
          signal: context.cancellationSignal,
          log: (line) => {
            context.log.info(line);
          },
          progress(update) {
            progress = { ...progress, ...update };
            context.heartbeat(progress);
          },
        });
        connectorRuns.inc({ connector: input.connector, outcome: 'ok' });
        connectorRecords.inc({ connector: input.connector }, report.written.length);
        return {
          connector: report.connector,
          records: report.records,
          written: report.written.length,
          unchanged: report.unchanged,
          bytes: report.bytes,
          indexProblems: report.indexProblems.map((p) => `${p.path}: ${p.error}`),
        };
      } catch (err) {
        connectorRuns.inc({ connector: input.connector, outcome: 'failed' });
        if (PERMANENT.some((type) => err instanceof type)) {
          throw ApplicationFailure.create({
            type: CONNECTOR_FAILED,
            message: (err as Error).message,
            nonRetryable: true,
          });
        }
        throw err;
      } finally {
        clearInterval(beat);
      }
    },
  };
}
