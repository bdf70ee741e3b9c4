import type { ConnectorName } from './contract';

/** The connector-run workflow family's input, result and failure types; shared by the workflow and its activity. */

export interface ConnectorRunInput {
  connector: ConnectorName;
}

export interface ConnectorRunResult {
  connector: ConnectorName;
  records: number;
  written: number;
  unchanged: number;
  bytes: number;
  /** Paths the index refused (`path: reason`). */
  indexProblems: string[];
}

/** A failure no retry can fix (bad configuration, a cursor the connector refuses, an invalid record). */
export const CONNECTOR_FAILED = 'ConnectorFailed';
/** This worker has no knowledge hub to index into; retried, since another worker of the queue may have one. */
export const CONNECTOR_NOT_CONFIGURED = 'ConnectorNotConfigured';
