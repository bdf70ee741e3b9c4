import MarkdownIt from 'markdown-it';

/**
 * Loaded on demand (a dynamic import from the file viewer), so pages without a Markdown file never download it.
 * `html: false` is markdown-it's safe mode: raw HTML in the source is escaped as text, and its default link check
 * refuses `javascript:`, `vbscript:`, `file:` and non-image `data:` URLs, so a model's Markdown can render elements
 * but never run anything (the console's CSP, `script-src 'self'`, would refuse an inline script as well).
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

export function renderMarkdown(source: string): string {
  return md.render(source);
}
