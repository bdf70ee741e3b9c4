import fs from 'node:fs/promises';
import path from 'node:path';
import type { PoolClient } from 'pg';
import YAML from 'yaml';
import { Conflict, NotFound, Refusal } from '../refusals/refusal';
import { DocumentFormatError, parseHubDocument, renderHubDocument, splitFrontmatter } from './document-format';
import { InvalidDocumentError } from './errors';
import { hubFile, type HubPath } from './hub-path';
import type { KnowledgeHub } from './hub';
import { prepareDocument, sha256, writeDocument, type IndexResult, type PreparedDocument } from './indexer';
import { khIdFor } from './kh-id';
import { SENSITIVITY_LEVELS, type Sensitivity } from './sensitivity';
import { canRead, canWrite, readerOrg, spaceName, visibleSql, type HubCaller, type SpaceChoice } from './space';

export class InsufficientClearanceError extends Refusal {
  override name = 'InsufficientClearanceError';
  constructor(message: string) {
    super('forbidden', 'insufficient_clearance', message);
  }
}

/** A write into a space the caller reads but may not write: the shared space, for a token that is not an admin. */
export class SpaceReadOnlyError extends Refusal {
  override name = 'SpaceReadOnlyError';
  constructor(message: string) {
    super('forbidden', 'space_read_only', message);
  }
}

const rank = (level: Sensitivity) => SENSITIVITY_LEVELS.indexOf(level);

/** The index's row at a path: whose it is and its level. */
async function indexedAt(
  db: Pick<PoolClient, 'query'>,
  hubPath: string,
): Promise<{ kh_id: string; org_id: string | null; sensitivity: Sensitivity } | undefined> {
  const { rows } = await db.query<{ kh_id: string; org_id: string | null; sensitivity: Sensitivity }>(
    'SELECT kh_id, org_id, sensitivity FROM kb_documents WHERE path = $1',
    [hubPath],
  );
  return rows[0];
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

/**
 * A hub file's text and hash, if the caller's levels include its sensitivity and the caller reads its space (else,
 * like a missing file, 404). A file the index does not hold has no space yet: only admin tokens read it.
 */
export async function readHubFile(
  hub: KnowledgeHub,
  hubPath: HubPath,
  levels: Sensitivity[],
  caller: HubCaller,
): Promise<{ path: string; content: string; content_hash: string }> {
  const indexed = await indexedAt(hub.pool, hubPath);
  const readable = indexed ? canRead(caller, indexed.org_id) : caller.is_admin;
  const raw = readable ? await readIfExists(hubFile(hub.hubDir, hubPath)) : undefined;
  if (raw === undefined || !levels.includes(declaredLevel(raw, hubPath))) throw new NotFound(`hub file ${hubPath}`);
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
 *
 * Tenancy: a new document goes to the writer's org, or with `space: "shared"` to the shared space (admin tokens
 * only); an existing one stays in its space, and only a token that may write that space may replace it (403 for the
 * shared space, 409 `path_taken` for another org's document, which the caller cannot see). Clearance: the caller's
 * clearance must cover the new sensitivity and the current one, so a document is only ever lowered (e.g. `internal`
 * to `public`) by a token cleared for its current level.
 */
export async function writeHubFile(
  hub: KnowledgeHub,
  input: {
    path: HubPath;
    content: string;
    expectHash?: string | null;
    clearance: Sensitivity;
    caller: HubCaller;
    space?: SpaceChoice;
  },
): Promise<{ path: string; kh_id: string; content_hash: string; result: IndexResult }> {
  const content = withAssignedId(input.content, input.path);
  let prepared: PreparedDocument;
  try {
    prepared = prepareDocument(input.path, content);
  } catch (err) {
    if (err instanceof DocumentFormatError) throw new InvalidDocumentError(err.message);
    throw err;
  }
  const next = prepared.document.frontmatter.sensitivity;
  if (rank(next) > rank(input.clearance)) {
    throw new InsufficientClearanceError(
      `writing a ${next} document needs that clearance; this token has ${input.clearance}`,
    );
  }
  const { caller } = input;
  /** The space the write goes to, given what the index holds at the path now. */
  const spaceFor = (indexed: { org_id: string | null } | undefined): string | null => {
    if (indexed) {
      if (!canRead(caller, indexed.org_id)) {
        throw new Conflict('path_taken', `${input.path} holds a document outside this token's org`);
      }
      if (!canWrite(caller, indexed.org_id)) {
        throw new SpaceReadOnlyError(`${input.path} is in ${spaceName(indexed.org_id)}, which only admin tokens write`);
      }
      const asked = input.space === undefined ? undefined : input.space === 'shared' ? null : caller.org_id;
      if (asked !== undefined && asked !== indexed.org_id) {
        throw new Conflict(
          'space_conflict',
          `${input.path} is in ${spaceName(indexed.org_id)}; a write does not move a document to ${spaceName(asked)}`,
        );
      }
      return indexed.org_id;
    }
    if (input.space === 'shared') {
      if (!caller.is_admin) throw new SpaceReadOnlyError('only admin tokens write the shared space');
      return null;
    }
    return caller.org_id;
  };
  const org = spaceFor(await indexedAt(hub.pool, input.path));
  const identity = await hub.ready();
  const file = hubFile(hub.hubDir, input.path);
  const client = await hub.pool.connect();
  try {
    const result = await writeDocument(hub, client, identity, prepared, {
      org,
      beforeApply: async () => {
        // Under the path's advisory lock, before the index changes: what the index and the disk hold now is what this
        // write replaces.
        const indexed = await indexedAt(client, input.path);
        if (spaceFor(indexed) !== org) throw new Conflict('hash_conflict', `${input.path} changed since it was read`);
        const current = await readIfExists(file);
        // A file the index does not hold has no space yet (the operator's, until `keel kb index`): not any org's to take.
        if (!indexed && current !== undefined && !caller.is_admin) {
          throw new Conflict(
            'path_taken',
            `${input.path} holds a file that is not indexed; only admin tokens replace it`,
          );
        }
        const levels = [indexed?.sensitivity, current === undefined ? undefined : declaredLevel(current, input.path)];
        const highest = levels
          .filter((level): level is Sensitivity => level !== undefined)
          .sort((a, b) => rank(b) - rank(a))[0];
        if (highest !== undefined && rank(highest) > rank(input.clearance)) {
          throw new InsufficientClearanceError(
            rank(next) < rank(highest)
              ? `lowering ${input.path} from ${highest} to ${next} needs ${highest} clearance; this token has ${input.clearance}`
              : `${input.path} holds a document above this token's clearance`,
          );
        }
        if (input.expectHash !== undefined) {
          const actual = current === undefined ? null : sha256(current);
          if (actual !== input.expectHash) {
            throw new Conflict(
              'hash_conflict',
              `${input.path} changed since it was read: its hash is ${actual ?? 'none (no such file)'}, not ${input.expectHash ?? 'none'}`,
            );
          }
        }
      },
      beforeCommit: async () => {
        await fs.mkdir(path.dirname(file), { recursive: true });
        const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
        await fs.writeFile(temp, content, 'utf8');
        await fs.rename(temp, file);
      },
    });
    if (result.status === 'invalid') throw new InvalidDocumentError(result.error);
    return { path: input.path, kh_id: prepared.document.frontmatter.id, content_hash: prepared.contentHash, result };
  } finally {
    client.release();
  }
}

/** The path of a document the caller may read (level and space), else 404. */
async function readablePath(hub: KnowledgeHub, khId: string, levels: Sensitivity[], caller: HubCaller) {
  const { rows } = await hub.pool.query<{ path: string }>(
    `SELECT d.path FROM kb_documents d WHERE d.kh_id = $1 AND d.sensitivity = ANY($2::text[]) AND ${visibleSql('$3')}`,
    [khId, levels, readerOrg(caller)],
  );
  const hubPath = rows[0]?.path;
  if (!hubPath) throw new NotFound(`document ${khId}`);
  return hubPath;
}

export interface DocumentEdit {
  kh_id: string;
  base_hash: string;
  /** The new markdown body; omitted keeps the body. */
  body?: string;
  /** A merge patch of the frontmatter: a key set to null is removed; `id` cannot change. */
  frontmatter?: Record<string, unknown>;
}

/**
 * Applies an edit to a document the caller may read (else 404, for another org's document too) if its file still has
 * `base_hash` (else 409), and re-indexes it; writeHubFile's space and clearance rules apply.
 */
export async function editDocument(
  hub: KnowledgeHub,
  edit: DocumentEdit,
  input: { levels: Sensitivity[]; clearance: Sensitivity; caller: HubCaller },
) {
  const hubPath = await readablePath(hub, edit.kh_id, input.levels, input.caller);
  const raw = await readIfExists(hubFile(hub.hubDir, hubPath));
  if (raw === undefined) throw new Conflict('hash_conflict', `${hubPath} no longer exists in the hub`);
  if (sha256(raw) !== edit.base_hash) {
    throw new Conflict('hash_conflict', `${edit.kh_id} changed since it was read: its hash is ${sha256(raw)}`);
  }
  let current;
  try {
    current = parseHubDocument(raw, hubPath);
  } catch (err) {
    throw new Conflict('hash_conflict', `${hubPath} no longer parses: ${(err as Error).message}`);
  }
  const frontmatter: Record<string, unknown> = { ...current.frontmatter };
  for (const [key, value] of Object.entries(edit.frontmatter ?? {})) {
    if (key === 'id' && value !== current.frontmatter.id)
      throw new InvalidDocumentError('frontmatter.id cannot change');
    if (value === null) delete frontmatter[key];
    else frontmatter[key] = value;
  }
  const content = renderHubDocument(frontmatter, edit.body ?? current.body);
  return writeHubFile(hub, {
    path: hubPath,
    content,
    expectHash: edit.base_hash,
    clearance: input.clearance,
    caller: input.caller,
  });
}

/**
 * Deletes a document the caller may read (else 404) and may write (else 403): its file and its index entry (chunks,
 * links and linked files with it), in one transaction under the path's lock. With `expectHash`, only if the file still
 * has that hash (else 409).
 */
export async function deleteDocument(
  hub: KnowledgeHub,
  input: { kh_id: string; expectHash?: string; levels: Sensitivity[]; caller: HubCaller },
): Promise<{ kh_id: string; path: string }> {
  const hubPath = await readablePath(hub, input.kh_id, input.levels, input.caller);
  const file = hubFile(hub.hubDir, hubPath);
  const client = await hub.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`kb-path:${hubPath}`]);
    const { rows } = await client.query<{ org_id: string | null }>(
      'SELECT org_id FROM kb_documents WHERE kh_id = $1 AND path = $2',
      [input.kh_id, hubPath],
    );
    if (!rows[0]) throw new NotFound(`document ${input.kh_id}`);
    if (!canWrite(input.caller, rows[0].org_id)) {
      throw new SpaceReadOnlyError(`${hubPath} is in ${spaceName(rows[0].org_id)}, which only admin tokens write`);
    }
    const current = await readIfExists(file);
    if (input.expectHash !== undefined && (current === undefined ? null : sha256(current)) !== input.expectHash) {
      throw new Conflict('hash_conflict', `${input.kh_id} changed since it was read`);
    }
    await client.query('DELETE FROM kb_documents WHERE kh_id = $1', [input.kh_id]);
    if (current !== undefined) await fs.rm(file, { force: true });
    await client.query('COMMIT');
    return { kh_id: input.kh_id, path: hubPath };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
