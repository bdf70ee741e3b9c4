// The spec's block table: Notion block trees to markdown. Pure and synchronous, so goldens and the bench run it
// without a network.
import { z } from 'zod';
import type { Block, BlockNode } from './api-schemas';
import { RichTextSchema } from './api-schemas';
import { plainText, renderRichText } from './rich-text';

const TextPayload = z.looseObject({ rich_text: z.array(RichTextSchema).default([]) });
const ToDoPayload = TextPayload.extend({ checked: z.boolean().default(false) });
const CalloutPayload = TextPayload.extend({
  icon: z.looseObject({ type: z.string(), emoji: z.string().optional() }).nullish(),
});
const CodePayload = TextPayload.extend({ language: z.string().default('') });
const FilePayload = z.looseObject({
  type: z.string().optional(),
  caption: z.array(RichTextSchema).default([]),
  name: z.string().optional(),
  external: z.looseObject({ url: z.string() }).optional(),
  file: z.looseObject({ url: z.string(), expiry_time: z.string().optional() }).optional(),
});
const UrlPayload = z.looseObject({ url: z.string().default('') });
const TitlePayload = z.looseObject({ title: z.string().default('') });
const TablePayload = z.looseObject({ has_column_header: z.boolean().default(false) });
const TableRowPayload = z.looseObject({ cells: z.array(z.array(RichTextSchema)).default([]) });

const LIST_TYPES = new Set(['bulleted_list_item', 'numbered_list_item', 'to_do']);
const HEADINGS: Record<string, string> = { heading_1: '##', heading_2: '###', heading_3: '####' };

/** Types whose children the renderer shows; the client fetches children only for these (child pages never recurse). */
export const TYPES_WITH_RENDERED_CHILDREN = new Set([
  'paragraph',
  'heading_1',
  'heading_2',
  'heading_3',
  'bulleted_list_item',
  'numbered_list_item',
  'to_do',
  'quote',
  'callout',
  'table',
  'column_list',
  'column',
]);

/** The payload schema of each type the renderer reads a payload of. */
const PAYLOAD_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ...['paragraph', 'heading_1', 'heading_2', 'heading_3', 'bulleted_list_item', 'numbered_list_item', 'quote'].map(
    (type) => [type, TextPayload] as const,
  ),
  ['to_do', ToDoPayload],
  ['callout', CalloutPayload],
  ['code', CodePayload],
  ...['image', 'video', 'file', 'pdf'].map((type) => [type, FilePayload] as const),
  ...['bookmark', 'embed', 'link_preview'].map((type) => [type, UrlPayload] as const),
  ...['child_page', 'child_database'].map((type) => [type, TitlePayload] as const),
  ['table', TablePayload],
  ['table_row', TableRowPayload],
]);

// Payloads parsed where their block is read (`withParsedPayload`), so rendering reads them without parsing again:
// re-parsing every payload at render time was half of the render's cost.
const parsedPayloads = new WeakMap<Block, { schema: z.ZodType; value: unknown }>();

/**
 * Parses a block's payload once, at the boundary where the block is read (client.ts). A payload that does not parse
 * is left as it is, for the renderer to report exactly as it would have.
 */
export function withParsedPayload(block: Block): Block {
  const schema = PAYLOAD_SCHEMAS.get(block.type);
  if (schema) {
    const parsed = schema.safeParse((block as Record<string, unknown>)[block.type] ?? {});
    if (parsed.success) parsedPayloads.set(block, { schema, value: parsed.data });
  }
  return block;
}

function payload<S extends z.ZodType>(block: Block, schema: S): z.output<S> {
  const parsed = parsedPayloads.get(block);
  if (parsed?.schema === schema) return parsed.value as z.output<S>;
  return schema.parse((block as Record<string, unknown>)[block.type] ?? {});
}

/** Prefixes every non-empty line (a loop rather than split/map/join: every list item of the tree passes here). */
function indent(text: string, prefix: string): string {
  let out = '';
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    if (stop > start) out += prefix;
    out += end < 0 ? text.slice(start) : text.slice(start, end + 1);
    if (end < 0) return out;
    start = end + 1;
  }
}

const FILE_TYPES = new Set(['image', 'video', 'file', 'pdf']);

/** A file Notion hosts: its URL is signed and stops working at `expiry` (about an hour after it was read). */
export interface HostedFile {
  blockId: string;
  url: string;
  expiry: string | undefined;
  /** The block's file name (file and pdf blocks carry one), else undefined. */
  name: string | undefined;
}

/**
 * Where a hosted file's link points in the markdown, and what the reader is told beside it: a copy in the hub (no
 * note), or the signed URL with its expiry when the file was not copied.
 */
export interface FileLink {
  href: string;
  note?: string;
}

/** The Notion-hosted file of an image, video, file or pdf block, or undefined (another type, or an external URL). */
export function hostedFileOf(block: Block): HostedFile | undefined {
  if (!FILE_TYPES.has(block.type)) return undefined;
  const file = payload(block, FilePayload);
  if (file.external || !file.file) return undefined;
  return { blockId: block.id, url: file.file.url, expiry: file.file.expiry_time, name: file.name };
}

/** Every Notion-hosted file in a block tree, in document order. */
export function hostedFilesIn(nodes: readonly BlockNode[]): HostedFile[] {
  return nodes.flatMap((node) => {
    const own = hostedFileOf(node.block);
    return [...(own ? [own] : []), ...hostedFilesIn(node.children)];
  });
}

/** The reader's warning beside a signed link that was not copied. */
export function expiryNote(expiry: string | undefined, why?: string): string {
  const expires = expiry
    ? `this Notion link expires ${expiry}`
    : 'this signed Notion link expires about an hour after the sync';
  return `_(${why ? `not copied: ${why}; ` : ''}${expires})_`;
}

/** A link destination as CommonMark reads it: angle brackets around one with spaces, parentheses or brackets. */
function destination(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}

function fence(text: string, language: string): string {
  const longest = Math.max(2, ...(text.match(/`{3,}/g) ?? []).map((run) => run.length));
  const marks = '`'.repeat(longest + 1);
  // The API's "plain text" has a space, which would end the info string after "plain".
  const info = language === 'plain text' ? 'text' : language.replace(/\s+/g, '-');
  return `${marks}${info}\n${text}\n${marks}`;
}

function tableCell(cell: Parameters<typeof renderRichText>[0]): string {
  return renderRichText(cell).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function renderTable(node: BlockNode): string {
  const { has_column_header } = payload(node.block, TablePayload);
  const rows = node.children
    .filter((child) => child.block.type === 'table_row')
    .map((child) => payload(child.block, TableRowPayload).cells.map(tableCell));
  const width = Math.max(1, ...rows.map((row) => row.length));
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => cells[i] ?? '').join(' | ')} |`.replace(/ {2}\|/g, ' |');
  // Markdown tables need a header row; a Notion table without one gets an empty header.
  const header = has_column_header ? (rows.shift() ?? []) : [];
  return [line(header), `|${' --- |'.repeat(width)}`, ...rows.map(line)].join('\n');
}

type Links = ReadonlyMap<string, FileLink> | undefined;

/** Child indents: bulleted and to-do children sit 2 spaces in; numbered children align with the text after "N. ". */
const INDENTS = ['', ' ', '  ', '   ', '    ', '     ', '      '];
function spaces(n: number): string {
  return INDENTS[n] ?? ' '.repeat(n);
}

function renderListItem(node: BlockNode, number: number, links: Links): string {
  const { block } = node;
  let marker: string;
  let text: string;
  if (block.type === 'to_do') {
    const todo = payload(block, ToDoPayload);
    marker = todo.checked ? '- [x] ' : '- [ ] ';
    text = renderRichText(todo.rich_text);
  } else {
    marker = block.type === 'numbered_list_item' ? `${number}. ` : '- ';
    text = renderRichText(payload(block, TextPayload).rich_text);
  }
  // Bulleted and to-do children sit 2 spaces in; numbered children align with the text after "N. " (CommonMark).
  const childIndent = spaces(block.type === 'numbered_list_item' ? marker.length : 2);
  // A one-line item (most of them) needs no indenting pass.
  let out = marker + (text.includes('\n') ? indent(text, childIndent).trimStart() : text.trimStart());
  if (node.children.length > 0) {
    const children = renderBlocks(node.children, links);
    if (children) out += `\n${indent(children, childIndent)}`;
  }
  return out;
}

function quoted(text: string): string {
  let out = '';
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    const line = end < 0 ? text.slice(start) : text.slice(start, end);
    out += line === '' ? '>' : `> ${line}`;
    if (end < 0) return out;
    out += '\n';
    start = end + 1;
  }
}

/** One non-list block; its children, where shown, follow it (quotes and callouts keep them inside the quote). */
function renderBlock(node: BlockNode, links: Links): string {
  const { block } = node;
  const type = block.type;
  const heading = HEADINGS[type];
  if (heading) return withChildren(`${heading} ${renderRichText(payload(block, TextPayload).rich_text)}`, node, links);
  switch (type) {
    case 'paragraph':
      return withChildren(renderRichText(payload(block, TextPayload).rich_text), node, links);
    case 'quote':
      return quoted(withChildren(renderRichText(payload(block, TextPayload).rich_text), node, links));
    case 'callout': {
      const callout = payload(block, CalloutPayload);
      const emoji = callout.icon?.emoji ? `${callout.icon.emoji} ` : '';
      return quoted(withChildren(emoji + renderRichText(callout.rich_text), node, links));
    }
    case 'code': {
      const code = payload(block, CodePayload);
      return fence(plainText(code.rich_text), code.language);
    }
    case 'image':
    case 'video':
    case 'file':
    case 'pdf': {
      const file = payload(block, FilePayload);
      const caption = plainText(file.caption) || file.name || '';
      const alt = caption.replace(/[[\]]/g, '\\$&');
      const hosted = hostedFileOf(block);
      if (!hosted) return `![${alt}](${destination(file.external?.url ?? '')})`;
      // Without a copy the signed URL is the only one that loads; the reader is told when it stops working.
      const link = links?.get(block.id) ?? { href: hosted.url, note: expiryNote(hosted.expiry) };
      return `![${alt}](${destination(link.href)})${link.note ? ` ${link.note}` : ''}`;
    }
    case 'bookmark':
    case 'embed':
    case 'link_preview':
      return payload(block, UrlPayload).url;
    case 'child_page':
      return `[child page: ${payload(block, TitlePayload).title}]`;
    case 'child_database':
      return `[child database: ${payload(block, TitlePayload).title}]`;
    case 'table':
      return renderTable(node);
    case 'column_list':
    case 'column':
      return renderBlocks(node.children, links);
    default:
      return `[unsupported block: ${type}]`;
  }
}

/** A block's own text, then its children's, a blank line apart (either may be empty). */
function withChildren(own: string, node: BlockNode, links: Links): string {
  const children = node.children.length > 0 ? renderBlocks(node.children, links) : '';
  if (children === '') return own;
  return own === '' ? children : `${own}\n\n${children}`;
}

/**
 * Renders sibling blocks: blocks are separated by a blank line, items of one list by a newline. Numbering counts
 * consecutive numbered items and restarts at 1 after any other block interrupts them. `links` maps a file block's id
 * to where its Notion-hosted file now is (connectors/notion/files.ts); a hosted file without an entry keeps its signed
 * URL with the expiry beside it.
 */
export function renderBlocks(nodes: readonly BlockNode[], links?: ReadonlyMap<string, FileLink>): string {
  let out = '';
  let previousType: string | undefined;
  let previousIsList = false;
  let number = 0;
  for (const node of nodes) {
    const type = node.block.type;
    const isList = LIST_TYPES.has(type);
    number = type === 'numbered_list_item' && previousType === type ? number + 1 : 1;
    const rendered = isList ? renderListItem(node, number, links) : renderBlock(node, links);
    if (rendered !== '') {
      if (out !== '') out += isList && previousIsList ? '\n' : '\n\n';
      out += rendered;
    }
    previousType = type;
    previousIsList = isList;
  }
  return out;
}
