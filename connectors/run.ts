import type { Pool } from 'pg';
import { readConnectorCursor, writeConnectorCursor } from './state-store';
import type { Connector, ConnectorContext } from './contract';
import { writeRecord, type PreviousDocumentLookup } from './hub-writer';

/** A stored cursor that the connector's cursorSchema refuses: the run stops instead of silently starting over. */
export class CursorInvalidError extends Error {
  override name = 'CursorInvalidError';
}

export interface RunSummary {
  /** Steps the connector yielded (records and cursor-only steps). */
  steps: number;
  /** Records the connector yielded. */
  records: number;
  /** Paths written (new or changed) and indexed. */
  written: string[];
  /** Records whose document was already identical. */
  unchanged: number;
  /** Bytes of the rendered documents of every record. */
  bytes: number;
}

export interface RunOptions<C> {
  connector: Connector<C>;
  /** The database holding `connector_state`. */
  pool: Pool;
  /** The hub working directory records are written into. */
  hubDir: string;
  context: ConnectorContext;
  previous: PreviousDocumentLookup;
  /** Re-indexes written paths (the knowledge hub's `indexPaths`); called before the cursor covering them is stored. */
  index(paths: string[]): Promise<void>;
  /**
   * Steps between index flushes. The cursor is stored only after the records before it are indexed, so a crash loses
   * at most this many steps of work (redone on resume, idempotently). 1 stores after every record.
   */
  flushEvery?: number;
  now?: () => Date;
}

/**
 * Runs a connector from its stored cursor: for each step, writes the record (if any) into the hub working directory,
 * then stores the advanced cursor, after indexing what was written before it. A crash mid-run resumes at the last
 * stored cursor; since the working directory is discarded, a written-but-unindexed record is exactly what the stored
 * cursor has not passed yet, so nothing is lost. Throws CursorInvalidError for a stored cursor the connector refuses.
 */
export async function runConnector<C>(options: RunOptions<C>): Promise<RunSummary> {
  const { connector, pool, context } = options;
  const stored = await readConnectorCursor(pool, connector.name);
  let cursor: C | undefined;
  if (stored !== undefined) {
    const parsed = connector.cursorSchema.safeParse(stored);
    if (!parsed.success) {
      throw new CursorInvalidError(
        `connector ${connector.name}: the stored cursor does not parse (${parsed.error.issues[0]?.message ?? 'invalid'}); ` +
          `reset it with \`keel connector reset --connector ${connector.name}\` to read everything again`,
      );
    }
    cursor = parsed.data;
  }
  const flushEvery = Math.max(1, options.flushEvery ?? 25);
  const summary: RunSummary = { steps: 0, records: 0, written: [], unchanged: 0, bytes: 0 };
  let pendingPaths: string[] = [];
  let pendingCursor: { value: C } | undefined;
  let pendingSteps = 0;

  const flush = async () => {
    if (pendingPaths.length > 0) await options.index(pendingPaths);
    if (pendingCursor) await writeConnectorCursor(pool, connector.name, pendingCursor.value);
    pendingPaths = [];
    pendingCursor = undefined;
    pendingSteps = 0;
  };

  try {
    for await (const step of connector.read(cursor, context)) {
      if (context.signal.aborted) throw context.signal.reason;
      summary.steps += 1;
      if (step.record) {
        const outcome = await writeRecord({
          hubDir: options.hubDir,
          connector: connector.name,
          record: step.record,
          previous: options.previous,
          now: options.now,
        });
        summary.records += 1;
        summary.bytes += outcome.bytes;
        if (outcome.status === 'written') {
          summary.written.push(outcome.path);
          pendingPaths.push(outcome.path);
        } else {
          summary.unchanged += 1;
        }
      }
      pendingCursor = { value: step.cursor };
      pendingSteps += 1;
      context.progress({ records: summary.records, bytes: summary.bytes });
      if (pendingSteps >= flushEvery) await flush();
    }
  } catch (err) {
    // Whatever was written before the failure is still indexed and its cursor stored, so a retry does not redo it;
    // a failing flush must not hide the original error.
    await flush().catch(() => undefined);
    throw err;
  }
  await flush();
  return summary;
}
