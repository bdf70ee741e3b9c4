import path from 'node:path';
import contentDisposition from 'content-disposition';
import mime from 'mime-types';

/**
 * Image types a browser may show as they are. Everything a model wrote is untrusted: HTML and SVG are served as plain
 * text (shown, never run, when the raw URL is opened), and the console previews HTML itself in a script-less sandbox.
 */
const IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Text is told from the bytes, not the extension: `.ts`, `.py` and `Makefile` have no reliable MIME type. */
function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The headers of a job file's bytes: an image type from its extension, UTF-8 text as `text/plain`, anything else as
 * octet-stream; `attachment` with its file name when asked to download (else `inline`); and a sandboxing policy, so a
 * file opened directly on the API's or the console's origin runs no script and loads nothing.
 */
export function fileHeaders(filePath: string, bytes: Buffer, download: boolean): Record<string, string> {
  const name = path.posix.basename(filePath);
  const byName = mime.lookup(filePath) || '';
  const contentType = IMAGES.has(byName)
    ? byName
    : isText(bytes)
      ? 'text/plain; charset=utf-8'
      : 'application/octet-stream';
  return {
    'content-type': contentType,
    'content-disposition': contentDisposition(name, {
      type: download ? 'attachment' : 'inline',
      // ASCII only in `filename`, the exact name in `filename*` (RFC 6266): header bytes beyond ASCII read differently
      // across clients.
      fallback: name.replace(/[^\x20-\x7e]/g, '?'),
    }),
    'content-security-policy':
      "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  };
}
