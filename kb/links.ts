import path from 'node:path';
import { KhIdSchema } from './kh-id';
import { parseMarkdown } from './markdown';

export interface DocumentLink {
  href: string;
  /** The hub path a relative `.md` link points to, if it stays inside the hub. */
  targetPath: string | null;
  /** The kh-id a link names (`kh-…` or `kh:kh-…`), if any. */
  targetKhId: string | null;
}

/** At most this many links are kept per document, so a link dump cannot bloat the atlas. */
const MAX_LINKS = 200;

/** The markdown links of a body (not images), with the hub document each points to when it points into the hub. */
export function extractLinks(hubPath: string, body: string): DocumentLink[] {
  const hrefs = new Set<string>();
  for (const token of parseMarkdown(body)) {
    for (const child of token.children ?? []) {
      const href = child.type === 'link_open' ? child.attrGet('href') : null;
      if (typeof href === 'string' && href) hrefs.add(href);
    }
  }
  return [...hrefs].slice(0, MAX_LINKS).map((href) => resolveLink(hubPath, href));
}

function resolveLink(hubPath: string, href: string): DocumentLink {
  const named = href.replace(/^kh:/, '');
  if (KhIdSchema.safeParse(named).success) return { href, targetPath: null, targetKhId: named };
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('/')) {
    return { href, targetPath: null, targetKhId: null };
  }
  const target = decodeSafely(href.split('#')[0]!.split('?')[0]!);
  if (!target.endsWith('.md')) return { href, targetPath: null, targetKhId: null };
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(hubPath), target));
  const inside = !resolved.startsWith('../') && resolved !== '..';
  return { href, targetPath: inside ? resolved : null, targetKhId: null };
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
