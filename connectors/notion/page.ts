import slugify from 'slugify';
import { z } from 'zod';
import type { BlockNode, Page } from './api-schemas';
import { RichTextSchema } from './api-schemas';
import { plainText } from './rich-text';
import { renderBlocks, type FileLink } from './render-blocks';

const TitleProperty = z.looseObject({ type: z.literal('title'), title: z.array(RichTextSchema).default([]) });

/** The page's title property as plain text ('' when the page is untitled). */
export function pageTitle(page: Page): string {
  for (const property of Object.values(page.properties)) {
    const parsed = TitleProperty.safeParse(property);
    if (parsed.success) return plainText(parsed.data.title).trim();
  }
  return '';
}

/** Notion ids appear with and without dashes; the compact form is the one in page URLs. */
function compactId(id: string): string {
  return id.replace(/-/g, '').toLowerCase();
}

/**
 * The file name stem: the slugified title, or — for an untitled page, or a title with nothing slugify keeps (emoji
 * only) — the first 12 characters of the page id in its compact form.
 */
export function pageSlug(page: Page): string {
  const slug = slugify(pageTitle(page), { lower: true, strict: true, trim: true });
  return slug || compactId(page.id).slice(0, 12);
}

export function pagePath(workspaceSlug: string, page: Page): string {
  return `sources/notion/${workspaceSlug}/${pageSlug(page)}.md`;
}

export function pageSourceId(page: Page): string {
  return `notion:page:${page.id}`;
}

/** The record body: the page title as `#` (headings inside start at `##`), then the rendered blocks. */
export function renderPage(page: Page, blocks: readonly BlockNode[], links?: ReadonlyMap<string, FileLink>): string {
  const title = pageTitle(page) || 'Untitled';
  const body = renderBlocks(blocks, links);
  return body ? `# ${title}\n\n${body}\n` : `# ${title}\n`;
}
