import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import mime from 'mime-types';
import type { Pool, PoolClient } from 'pg';
import { hubFile, HubFilePathSchema } from './hub-path';
import { parseMarkdown, type Token } from './markdown';
import type { Sensitivity } from './sensitivity';
import { visibleSql } from './space';

/**
 * The largest linked file the index keeps. Files are stored in PostgreSQL (bytea), read whole into memory when
 * served, so the cap keeps one document's attachments from bloating the index; a larger file's link stays as it is.
 */
export const MAX_LINKED_FILE_BYTES = 10 * 1024 * 1024;
/** At most this many linked files per document. */
const MAX_LINKED_FILES = 100;

export interface LinkedFile {
  path: string;
  bytes: Buffer;
  contentType: string;
  sha256: string;
}

function hrefsOf(tokens: Token[], into: Set<string>): void {
  for (const token of tokens) {
    if (token.type === 'image') {
      const src = token.attrGet('src');
      if (src) into.add(String(src));
    } else if (token.type === 'link_open') {
      const href = token.attrGet('href');
      if (href) into.add(String(href));
    }
    if (token.children) hrefsOf(token.children, into);
  }
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The hub paths of the non-markdown files a document's body links to or shows by a relative URL (`![](page.files/a.png)`,
 * `[spec](../specs/v2.pdf)`), resolved against the document's own directory. Absolute URLs, anchors, root-relative
 * links and links leaving the hub are not files of the hub.
 */
export function linkedFilePaths(hubPath: string, body: string): string[] {
  const hrefs = new Set<string>();
  hrefsOf(parseMarkdown(body), hrefs);
  const paths = new Set<string>();
  for (const href of hrefs) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('/')) continue;
    const target = decodeSafely(href.split('#')[0]!.split('?')[0]!);
    if (!target || target.endsWith('.md')) continue;
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(hubPath), target));
    if (HubFilePathSchema.safeParse(resolved).success) paths.add(resolved);
    if (paths.size >= MAX_LINKED_FILES) break;
  }
  return [...paths];
}

/** The linked files present in the hub directory, up to the size cap; missing, oversized or non-regular files are skipped. */
export async function readLinkedFiles(hubDir: string, paths: readonly string[]): Promise<LinkedFile[]> {
  const files: LinkedFile[] = [];
  for (const hubPath of paths) {
    const file = hubFile(hubDir, hubPath);
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat?.isFile() || stat.size > MAX_LINKED_FILE_BYTES) continue;
    const bytes = await fs.readFile(file);
    files.push({
      path: hubPath,
      bytes,
      contentType: mime.lookup(hubPath) || 'application/octet-stream',
      sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
    });
  }
  return files;
}

/**
 * Brings a document's stored files in line with its body, inside the document's transaction: files present in the
 * working directory are stored (or replaced), and files the body no longer links to go. A linked file absent from the
 * working directory keeps its stored copy: a connector run's fresh clone holds only what that run wrote.
 */
export async function storeLinkedFiles(
  client: PoolClient,
  khId: string,
  linked: readonly string[],
  present: readonly LinkedFile[],
): Promise<void> {
  await client.query('DELETE FROM kb_files WHERE kh_id = $1 AND NOT (path = ANY($2::text[]))', [khId, linked]);
  for (const file of present) {
    await client.query(
      `INSERT INTO kb_files (kh_id, path, content_type, bytes, sha256) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (kh_id, path) DO UPDATE SET content_type = $3, bytes = $4, sha256 = $5
       WHERE kb_files.sha256 <> $5`,
      [khId, file.path, file.contentType, file.bytes, file.sha256],
    );
  }
}

/** A stored file of a document the caller may read, or undefined (absent and unreadable look the same). */
export async function readStoredFile(
  pool: Pool,
  hubPath: string,
  levels: Sensitivity[],
  org: string | null,
): Promise<{ contentType: string; bytes: Buffer; sha256: string } | undefined> {
  const { rows } = await pool.query<{ content_type: string; bytes: Buffer; sha256: string }>(
    `SELECT f.content_type, f.bytes, f.sha256 FROM kb_files f JOIN kb_documents d ON d.kh_id = f.kh_id
     WHERE f.path = $1 AND d.sensitivity = ANY($2::text[]) AND ${visibleSql('$3')}
     ORDER BY d.updated_at DESC LIMIT 1`,
    [hubPath, levels, org],
  );
  const row = rows[0];
  return row ? { contentType: row.content_type, bytes: row.bytes, sha256: row.sha256 } : undefined;
}
