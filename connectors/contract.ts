/**
 * The one contract every connector implements (connectors spec, "What the service does" item 4): iterate records
 * from a cursor, yielding pairs of (record, advanced cursor). The run (connectors/run.ts) persists each advanced
 * cursor in `connector_state` as soon as the record before it is written, so a crash resumes where it stopped, and
 * it owns everything common: kh-id, idempotent writes preserving `id` and `created_at`, `source_hash`, validation
 * against the hub's frontmatter schema, re-indexing the changed paths.
 *
 * A connector therefore only fetches and renders: it never touches the hub directory, the database or the index.
 */
import type { z } from 'zod';
import type { Sensitivity } from '../kb/sensitivity';

export type ConnectorName = 'notion' | 'slack' | 'github';

/** One upstream record, rendered, before the run writes it into the hub. */
export interface SourceRecord {
  /** The hub path, exactly as the spec's output table names it, e.g. `sources/slack/general/2026-11-21.md`. */
  path: string;
  /** The stable upstream identity from the spec's table (`notion:page:<id>`, `slack:<channel>:<day>`, …). */
  sourceId: string;
  title: string;
  sensitivity: Sensitivity;
  tags: string[];
  /** Where a reader finds the original (for GitHub: the file at the commit). */
  sourceUrl: string;
  /** When the upstream record last changed (ISO 8601 UTC), if the source says. */
  updatedAt?: string;
  /** Connector-specific frontmatter fields, passed through (e.g. `channel`, `repo`, `commit`). */
  extra?: Record<string, unknown>;
  /** The rendered markdown body (no frontmatter). */
  body: string;
  /**
   * Files the body links to by a relative URL (a Notion page's copied attachments): written into the hub before the
   * document, so indexing it stores them with it. Paths are hub paths under the connector's `sources/<service>/`.
   */
  files?: SourceFile[];
}

export interface SourceFile {
  path: string;
  bytes: Uint8Array;
}

/** What a connector may use while it reads; everything with side effects stays in the run. */
export interface ConnectorContext {
  /** A credential by secret id, from the secrets store at the moment of use; undefined when the store has none. */
  secret(id: string): Promise<string | undefined>;
  /** Progress for the Temporal UI (the run's activity heartbeats it). */
  progress(update: { records?: number; bytes?: number; note?: string }): void;
  /** Aborted when the run is cancelled or times out. */
  signal: AbortSignal;
  log(line: string): void;
}

/**
 * `record` is absent for a step that only advances the cursor (e.g. GitHub: the repo's HEAD is unchanged, or a
 * Slack channel with nothing new), so the cursor still moves without a write.
 */
export interface ConnectorStep<C> {
  record?: SourceRecord;
  cursor: C;
}

export interface Connector<C> {
  readonly name: ConnectorName;
  /** Parses a stored cursor; the run refuses a row that does not parse rather than starting over silently. */
  readonly cursorSchema: z.ZodType<C>;
  read(cursor: C | undefined, context: ConnectorContext): AsyncIterable<ConnectorStep<C>>;
}
