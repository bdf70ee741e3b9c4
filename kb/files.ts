import fs from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';
import { AppError, ConflictError, NotFoundError } from '../http/errors';
import { DocumentFormatError, parseHubDocument, renderHubDocument, splitFrontmatter } from './document-format';
import { InvalidDocumentError } from './errors';
import { hubFile, type HubPath } from './hub-path';
import type { KnowledgeHub } from './hub';
import { prepareDocument, sha256, writeDocument, type IndexResult, type PreparedDocument } from './indexer';
import { khIdFor } from './kh-id';
import { SENSITIVITY_LEVELS, type Sensitivity } from './sensitivity';

export class InsufficientClearanceError extends AppError {
  override name = 'InsufficientClearanceError';
  constructor(message: string) {
    super(403, 'insufficient_clearance', message);
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The level a file's frontmatter declares; a file without a readable one counts as `secret`. */
function declaredLevel(raw: string, hubPath: string): Sensitivity {
  try {
    return parseHubDocument(raw, hubPath).frontmatter.sensitivity;
  } catch {
    return 'secret';
  }
}

/** A hub file's text and hash, if the caller's levels include its sensitivity (else, like a missing file, 404). */
export async function readHubFile(
  hub: KnowledgeHub,
  hubPath: HubPath,
  levels: Sensitivity[],
): Promise<{ path: string; content: string; content_hash: string }> {
  const raw = await readIfExists(hubFile(hub.hubDir, hubPath));
  if (raw === undefined || !levels.includes(declaredLevel(raw, hubPath)))
    throw new NotFoundError(`hub file ${hubPath}`);
  return { path: hubPath, content: raw, content_hash: sha256(raw) };
}

/**
 * A file without an `id` in its frontmatter gets the kh-id of `hub:<path>`, written into the file, so curated
 * files need not compute one.
 */
export function withAssignedId(raw: string, hubPath: string): string {
  let split;
  try {
    split = splitFrontmatter(raw);
  } catch (err) {
    throw new InvalidDocumentError((err as Error).message);
  }
  if (split.yaml === undefined) return raw;
  let data: unknown;
  try {
    data = YAML.parse(split.yaml);
  } catch {
    return raw;
  }
  if (!data || typeof data !== 'object' || Array.isArray(data) || 'id' in data) return raw;
  return renderHubDocument({ id: khIdFor(`hub:${hubPath}`), ...(data as Record<string, unknown>) }, split.body);
}

/**
 * Writes a hub file and re-indexes it before returning. With `expectHash` (a string, or null for "must not
 * exist"), the write happens only if the file still has that hash, checked under the path's lock: otherwise 409.
 * The caller's clearance must cover both the file's current and its new sensitivity.
 */
export async function writeHubFile(
  hub: KnowledgeHub,
  input: { path: HubPath; content: string; expectHash?: string | null; clearance: Sensitivity },
): Promise<{ path: string; kh_id: string; content_hash: string; result: IndexResult }> {
  const content = withAssignedId(input.content, input.path);
  let prepared: PreparedDocument;
  try {
    prepared = prepareDocument(input.path, content);
  } catch (err) {
    if (err instanceof DocumentFormatError) throw new InvalidDocumentError(err.message);
    throw err;
  }
  const allowed = SENSITIVITY_LEVELS.indexOf(input.clearance);
  if (SENSITIVITY_LEVELS.indexOf(prepared.document.frontmatter.sensitivity) > allowed) {
    throw new InsufficientClearanceError(
      `writing a ${prepared.document.frontmatter.sensitivity} document needs that clearance; this token has ${input.clearance}`,
    );
  }
  const identity = await hub.ready();
  const file = hubFile(hub.hubDir, input.path);
  const client = await hub.pool.connect();
  try {
    const result = await writeDocument(hub, client, identity, prepared, async () => {
      // Under the path's advisory lock: what is on disk now is what this write replaces.
      const current = await readIfExists(file);
      if (current !== undefined && SENSITIVITY_LEVELS.indexOf(declaredLevel(current, input.path)) > allowed) {
        throw new InsufficientClearanceError(`${input.path} holds a document above this token's clearance`);
      }
      if (input.expectHash !== undefined) {
        const actual = current === undefined ? null : sha256(current);
        if (actual !== input.expectHash) {
          throw new ConflictError(
            'hash_conflict',
            `${input.path} changed since it was read: its hash is ${actual ?? 'none (no such file)'}, not ${input.expectHash ?? 'none'}`,
          );
        }
      }
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(temp, content, 'utf8');
      await fs.rename(temp, file);
    });
    if (result.status === 'invalid') throw new InvalidDocumentError(result.error);
    return { path: input.path, kh_id: prepared.document.frontmatter.id, content_hash: prepared.contentHash, result };
  } finally {
    client.release();
  }
}

export interface DocumentEdit {
  kh_id: string;
  base_hash: string;
  /** The new markdown body; omitted keeps the body. */
  body?: string;
  /** A merge patch of the frontmatter: a key set to null is removed; `id` cannot change. */
  frontmatter?: Record<string, unknown>;
}

/** Applies an edit to a readable document if its file still has `base_hash` (else 409), and re-indexes it. */
export async function editDocument(
  hub: KnowledgeHub,
  edit: DocumentEdit,
  input: { levels: Sensitivity[]; clearance: Sensitivity },
) {
  const { rows } = await hub.pool.query<{ path: string }>(
    'SELECT path FROM kb_documents WHERE kh_id = $1 AND sensitivity = ANY($2::text[])',
    [edit.kh_id, input.levels],
  );
  const hubPath = rows[0]?.path;
  if (!hubPath) throw new NotFoundError(`document ${edit.kh_id}`);
  const raw = await readIfExists(hubFile(hub.hubDir, hubPath));
  if (raw === undefined) throw new ConflictError('hash_conflict', `${hubPath} no longer exists in the hub`);
  if (sha256(raw) !== edit.base_hash) {
    throw new ConflictError('hash_conflict', `${edit.kh_id} changed since it was read: its hash is ${sha256(raw)}`);
  }
  let current;
  try {
    current = parseHubDocument(raw, hubPath);
  } catch (err) {
    throw new ConflictError('hash_conflict', `${hubPath} no longer parses: ${(err as Error).message}`);
  }
  const frontmatter: Record<string, unknown> = { ...current.frontmatter };
  for (const [key, value] of Object.entries(edit.frontmatter ?? {})) {
    if (key === 'id' && value !== current.frontmatter.id)
      throw new InvalidDocumentError('frontmatter.id cannot change');
    if (value === null) delete frontmatter[key];
    else frontmatter[key] = value;
  }
  const content = renderHubDocument(frontmatter, edit.body ?? current.body);
  return writeHubFile(hub, { path: hubPath, content, expectHash: edit.base_hash, clearance: input.clearance });
}
