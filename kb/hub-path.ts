import path from 'node:path';
import { z } from 'zod';

/**
 * A hub file's path: relative, POSIX separators, a markdown file. Dot-files are fine (a code-host record may mirror
 * `.github/…`), but no empty, `.` or `..` segment, so a path can never leave the hub directory.
 */
export const HubPathSchema = z
  .string()
  .min(4)
  .max(1024)
  .refine((p) => !p.startsWith('/') && !p.includes('\\') && !p.includes('\0'), 'a relative POSIX path')
  .refine((p) => p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..'), 'no empty, . or .. segments')
  .refine((p) => p.endsWith('.md'), 'a markdown file (.md)');
export type HubPath = z.infer<typeof HubPathSchema>;

/**
 * A file a hub document links to (an image, a PDF, a copied attachment): a relative POSIX path inside the hub like a
 * document's, but not a markdown file.
 */
export const HubFilePathSchema = z
  .string()
  .min(1)
  .max(1024)
  .refine((p) => !p.startsWith('/') && !p.includes('\\') && !p.includes('\0'), 'a relative POSIX path')
  .refine((p) => p.split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..'), 'no empty, . or .. segments')
  .refine((p) => !p.endsWith('.md'), 'not a markdown file (documents are read with /v1/kb/doc or /v1/kb/file)');

/** The absolute location of a validated hub path. */
export function hubFile(hubDir: string, hubPath: string): string {
  return path.join(hubDir, ...hubPath.split('/'));
}

/** The domain a document belongs to: the service of `sources/<service>/…`, else `hub` (curated files). */
export function sourceOf(hubPath: string): string {
  const [top, service] = hubPath.split('/');
  return top === 'sources' && service && hubPath.split('/').length > 2 ? service : 'hub';
}
