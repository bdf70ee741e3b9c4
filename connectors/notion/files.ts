// Notion-hosted files (uploaded images, PDFs, attachments) are served from signed S3 URLs that stop working about an
// hour after the API handed them out, so a link kept as it is soon fails. A file up to the size cap is copied into
// the hub next to its page and the markdown points at the copy; a larger one keeps its signed URL, and the reader is
// told when it expires.
import crypto from 'node:crypto';
import path from 'node:path';
import type { SourceFile } from '../contract';
import { expiryNote, type FileLink, type HostedFile } from './render-blocks';

export interface CopiedFiles {
  /** Block id → where its file's link points now (the copy, or the signed URL with a note). */
  links: Map<string, FileLink>;
  /** The copies, as hub paths and bytes, for the run to write next to the page. */
  files: SourceFile[];
}

type Download =
  { status: 'ok'; bytes: Buffer } | { status: 'too_large'; size?: number } | { status: 'failed'; why: string };

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;
}

/**
 * A file name safe in a hub path and a markdown link without escaping: the block's name, else the URL's last
 * segment, reduced to letters, digits, `.`, `_` and `-`. A `.md` name gets `.txt` added, so a copy is never taken
 * for a hub document.
 */
export function safeFileName(file: HostedFile): string {
  let raw = file.name ?? '';
  if (!raw) {
    try {
      raw = decodeURIComponent(new URL(file.url).pathname.split('/').pop() ?? '');
    } catch {
      raw = '';
    }
  }
  let name = raw
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(-100);
  if (!name) name = 'file';
  return name.toLowerCase().endsWith('.md') ? `${name}.txt` : name;
}

/**
 * The file's bytes, reading at most `maxBytes` (a Content-Length above it is refused before the body is read).
 * No Notion credentials are sent: the URL's signature is the whole authorisation, and S3 refuses a request that
 * carries a second one.
 */
async function download(url: string, maxBytes: number, signal: AbortSignal): Promise<Download> {
  const response = await fetch(url, { signal });
  if (!response.ok) {
    await response.body?.cancel();
    return { status: 'failed', why: `the download answered ${response.status}` };
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    return { status: 'too_large', size: declared };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      total += (chunk as Uint8Array).byteLength;
      if (total > maxBytes) return { status: 'too_large' };
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
  }
  return { status: 'ok', bytes: Buffer.concat(chunks) };
}

/**
 * Copies a page's hosted files. Each copy is at `<page dir>/<page slug>.files/<first 12 hex of its SHA-256>-<name>`,
 * so a re-sync of unchanged files renders byte-identical markdown, and a replaced file gets a new name (and the page
 * a new body, so it is re-indexed). A download that fails or exceeds `maxBytes` leaves the signed URL with a note; a
 * network error throws, so the run fails before its cursor passes the page and the next run tries again.
 */
export async function copyHostedFiles(
  hosted: readonly HostedFile[],
  options: { pagePath: string; maxBytes: number; signal: AbortSignal; log(line: string): void },
): Promise<CopiedFiles> {
  const links = new Map<string, FileLink>();
  const files = new Map<string, SourceFile>();
  const dir = path.posix.dirname(options.pagePath);
  const folder = `${path.posix.basename(options.pagePath, '.md')}.files`;
  for (const file of hosted) {
    const result: Download =
      options.maxBytes > 0 ? await download(file.url, options.maxBytes, options.signal) : { status: 'too_large' };
    if (result.status !== 'ok') {
      const why =
        result.status === 'failed'
          ? result.why
          : `${result.size === undefined ? 'the file' : size(result.size)} is over the ${size(options.maxBytes)} copy limit`;
      options.log(`notion: ${options.pagePath}: file of block ${file.blockId} not copied (${why})`);
      links.set(file.blockId, { href: file.url, note: expiryNote(file.expiry, why) });
      continue;
    }
    const hash = crypto.createHash('sha256').update(result.bytes).digest('hex').slice(0, 12);
    const relative = `${folder}/${hash}-${safeFileName(file)}`;
    files.set(relative, { path: `${dir}/${relative}`, bytes: result.bytes });
    links.set(file.blockId, { href: relative });
  }
  return { links, files: [...files.values()] };
}
