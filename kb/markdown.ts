import MarkdownIt from 'markdown-it';

export type Token = MarkdownIt.Token;

// CommonMark plus GFM tables and strikethrough, so a table or ~~text~~ is one block, as a reader sees it.
const parser = new MarkdownIt('default', { html: true, linkify: false });

/** markdown-it's token stream for a document body; block tokens carry `map` (0-based [start, end) source lines). */
export function parseMarkdown(body: string): Token[] {
  return parser.parse(body, {});
}
