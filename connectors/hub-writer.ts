import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseHubDocument, renderHubDocument, HubFrontmatterSchema } from '../kb/document-format';
import { hubFile, HubFilePathSchema, HubPathSchema } from '../kb/hub-path';
import { khIdFor } from '../kb/kh-id';
import type { ConnectorName, SourceRecord } from './contract';

/** A record that would not make a valid hub document; the run stops rather than write it. */
export class RecordInvalidError extends Error {
  override name = 'RecordInvalidError';
}

/** The version of a document the hub already has: the working directory's file, else the index's copy. */
export interface PreviousDocument {
  frontmatter: Record<string, unknown>;
  body: string;
}

export type PreviousDocumentLookup = (hubPath: string) => Promise<PreviousDocument | undefined>;

export type WriteOutcome = { path: string; status: 'written' | 'unchanged'; bytes: number };

/** `sha256:<64 hex>` of the rendered body (the hub schema's `source_hash` format). */
export function sourceHashOf(body: string): string {
  return `sha256:${crypto.createHash('sha256').update(body, 'utf8').digest('hex')}`;
}

/** The fields the run owns; a connector's `extra` can add fields but never replace these. */
const OWNED_FIELDS = new Set([
  'id',
  'title',
  'sensitivity',
  'tags',
  'source_id',
  'source_url',
  'source_hash',
  'created_at',
  'updated_at',
]);

/**
 * The frontmatter of a record in a fixed field order (so equal content renders to equal bytes). `id` is always the
 * kh-id of the source id; `created_at` is the previous version's when there is one, so a rewrite keeps it.
 */
export function frontmatterFor(
  record: SourceRecord,
  previous: PreviousDocument | undefined,
  now: string,
): Record<string, unknown> {
  const extra = Object.fromEntries(Object.entries(record.extra ?? {}).filter(([key]) => !OWNED_FIELDS.has(key)));
  const previousCreated = previous?.frontmatter.created_at;
  const previousUpdated = previous?.frontmatter.updated_at;
  return {
    id: khIdFor(record.sourceId),
    title: record.title,
    sensitivity: record.sensitivity,
    tags: record.tags,
    source_id: record.sourceId,
    source_url: record.sourceUrl,
    source_hash: sourceHashOf(record.body),
    created_at: typeof previousCreated === 'string' ? previousCreated : now,
    // Without an upstream time, an unchanged record keeps its previous updated_at (else every run would differ).
    updated_at: record.updatedAt ?? (typeof previousUpdated === 'string' ? previousUpdated : now),
    ...extra,
  };
}

/** Key-sorted JSON of the frontmatter after the hub schema's defaults: equal meaning gives equal text. */
function canonical(frontmatter: Record<string, unknown>): string {
  const parsed = HubFrontmatterSchema.safeParse(frontmatter);
  const value: unknown = parsed.success ? parsed.data : frontmatter;
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** The path must be a hub path under `sources/<connector>/` (the spec's output table). */
export function checkRecordPath(connector: ConnectorName, record: SourceRecord): string {
  const valid = HubPathSchema.safeParse(record.path);
  if (!valid.success)
    throw new RecordInvalidError(`record ${record.sourceId}: path ${record.path}: ${valid.error.issues[0]!.message}`);
  if (!record.path.startsWith(`sources/${connector}/`)) {
    throw new RecordInvalidError(`record ${record.sourceId}: path ${record.path} is not under sources/${connector}/`);
  }
  return valid.data;
}

/** Each file's path must be a hub file path under `sources/<connector>/`, like its document's. */
function checkFilePaths(connector: ConnectorName, record: SourceRecord): void {
  for (const file of record.files ?? []) {
    const valid = HubFilePathSchema.safeParse(file.path);
    if (!valid.success || !file.path.startsWith(`sources/${connector}/`)) {
      const why = valid.success ? `is not under sources/${connector}/` : valid.error.issues[0]!.message;
      throw new RecordInvalidError(`record ${record.sourceId}: file ${file.path}: ${why}`);
    }
  }
}

/** Write then rename: a crash never leaves a half-written file for the indexer. */
async function writeAtomically(file: string, content: string | Uint8Array): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, content);
  await fs.rename(tmp, file);
}

/** The working directory's file at `hubPath`, parsed; undefined when absent or not a valid hub document. */
export async function previousFromFile(hubDir: string, hubPath: string): Promise<PreviousDocument | undefined> {
  let raw: string;
  try {
    raw = await fs.readFile(hubFile(hubDir, hubPath), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const doc = parseHubDocument(raw, hubPath);
    return { frontmatter: doc.frontmatter, body: doc.body };
  } catch {
    // A broken file is simply replaced by a valid render; there is nothing in it worth preserving.
    return undefined;
  }
}

/**
 * Writes one record into the hub working directory, idempotently: when the canonical frontmatter and body equal the
 * previous version's, nothing is written (`unchanged`). On a rewrite the previous `id` (always the kh-id of the
 * source id) and `created_at` are kept. Every document is validated against the hub's frontmatter schema before it
 * is written; a record that fails throws RecordInvalidError and nothing is written.
 */
export async function writeRecord(input: {
  hubDir: string;
  connector: ConnectorName;
  record: SourceRecord;
  previous: PreviousDocumentLookup;
  now?: () => Date;
}): Promise<WriteOutcome> {
  const { record } = input;
  const hubPath = checkRecordPath(input.connector, record);
  checkFilePaths(input.connector, record);
  const now = (input.now ?? (() => new Date()))().toISOString();
  const previous = await input.previous(hubPath);
  let frontmatter = frontmatterFor(record, previous, now);
  const checked = HubFrontmatterSchema.safeParse(frontmatter);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => `${issue.path.join('.') || 'frontmatter'}: ${issue.message}`);
    throw new RecordInvalidError(`record ${record.sourceId}: ${issues.join('; ')}`);
  }
  const text = renderHubDocument(frontmatter, record.body);
  const bytes = Buffer.byteLength(text);
  if (previous && previous.body === record.body && canonical(previous.frontmatter) === canonical(frontmatter)) {
    return { path: hubPath, status: 'unchanged', bytes };
  }
  if (previous && !record.updatedAt) frontmatter = { ...frontmatter, updated_at: now };
  // The files first: indexing the document stores the files its body links to that are there.
  for (const linked of record.files ?? []) await writeAtomically(hubFile(input.hubDir, linked.path), linked.bytes);
  await writeAtomically(hubFile(input.hubDir, hubPath), renderHubDocument(frontmatter, record.body));
  return { path: hubPath, status: 'written', bytes };
}
