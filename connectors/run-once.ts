import type { Pool } from 'pg';
import type { Embedder } from '../kb/embedders/types';
import type { SecretStore } from '../secrets/store';
import { createHub } from '../kb/hub';
import { indexPaths, type IndexResult } from '../kb/indexer';
import { scheduleSettings } from './config';
import type { ConnectorsConfig } from './settings';
import type { Connector, ConnectorName } from './contract';
import { checkoutHub } from './hub-checkout';
import { previousDocumentLookup } from './previous-document';
import { createConnector } from './registry';
import { runConnector, type RunSummary } from './run';

/** What the index refused (id collisions, invalid files); the run goes on, and reports them. */
export type IndexProblem = Extract<IndexResult, { status: 'invalid' }>;

export interface RunReport extends RunSummary {
  connector: ConnectorName;
  indexProblems: IndexProblem[];
}

export interface RunOnceInput {
  name: ConnectorName;
  /** The connectors' settings, parsed once when the process started. */
  config: ConnectorsConfig;
  /** Where the connector's credential is looked up by its auth secret id, during the run. */
  secrets: SecretStore;
  /** The database holding `connector_state`. */
  pool: Pool;
  /** The knowledge index: its database and embedder (the hub's, whose directory is replaced by the run's). */
  index: { pool: Pool; embedder: Embedder; unavailable?: string };
  /** Overrides the registry's connector (tests of the run itself). */
  connector?: Connector<unknown>;
  progress?: (update: { records?: number; bytes?: number; note?: string }) => void;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

/**
 * One connector run end to end (connectors spec, "What the service does" item 2): a fresh working directory with a
 * clone of the curated hub; the connector iterates from its stored cursor and writes new or changed markdown under
 * `sources/<service>/…`; the written paths are re-indexed (through the knowledge hub's `indexPaths`) before their
 * cursor is stored and before this returns; the directory is discarded. Nothing is committed or pushed back to the
 * hub repository: durable state is the cursor table and the index only.
 */
export async function runConnectorOnce(input: RunOnceInput): Promise<RunReport> {
  const log = input.log ?? (() => undefined);
  const signal = input.signal ?? new AbortController().signal;
  const connector = input.connector ?? createConnector(input.name, input.config);
  // Every document of the run lands in the connector's configured space (an org, or the shared space).
  const { org } = scheduleSettings(input.config.shared, input.name);
  const checkout = await checkoutHub(input.config.shared.KB_HUB_URL, signal);
  try {
    const hub = createHub({
      pool: input.index.pool,
      hubDir: checkout.dir,
      embedder: input.index.embedder,
      unavailable: input.index.unavailable,
    });
    const indexProblems: IndexProblem[] = [];
    const summary = await runConnector({
      connector,
      pool: input.pool,
      hubDir: checkout.dir,
      previous: previousDocumentLookup(checkout.dir, input.index.pool),
      flushEvery: input.config.shared.CONNECTOR_FLUSH_EVERY,
      context: {
        secret: (id) => input.secrets.get(id),
        progress: input.progress ?? (() => undefined),
        signal,
        log,
      },
      async index(paths) {
        for (const result of await indexPaths(hub, paths, { org })) {
          if (result.status === 'invalid') {
            log(`index refused ${result.path}: ${result.error}`);
            indexProblems.push(result);
          }
        }
      },
    });
    return { connector: input.name, ...summary, indexProblems };
  } finally {
    await checkout.discard();
  }
}
