import crypto from 'node:crypto';
import { parseMarkdown } from './markdown';

/** Most characters of content a chunk holds besides its heading line; a larger block is split at line breaks. */
export const MAX_CHUNK_CHARS = 1500;
/** Most characters the next chunk of the same section repeats from the end of the previous one. */
export const OVERLAP_CHARS = 200;

export interface Chunk {
  /** `<kh_id>:<16 hex of the SHA-256 of heading and content>`: unchanged text keeps its id across edits. */
  chunkId: string;
  ordinal: number;
  /** The heading path, outermost first, joined with ` > ` (empty before the first heading). */
  heading: string;
  /** What is embedded and searched: the section's heading line, a blank line, then the text. */
  content: string;
  /** 1-based, inclusive lines of the file this chunk's own text (not its overlap) came from. */
  startLine: number;
  endLine: number;
}

interface Block {
  text: string;
  /** 0-based [start, end) lines of the body. */
  start: number;
  end: number;
}

interface Section {
  path: string[];
  headingLine: string | undefined;
  blocks: Block[];
}

/**
 * Markdown-aware chunking. A section runs from one heading to the next of any level; its chunks start with that
 * heading's line (so a heading is never separated from its text) and carry the full heading path. Top-level blocks
 * (paragraphs, lists, fenced code, tables, quotes) are packed whole into chunks of at most MAX_CHUNK_CHARS; only a
 * block larger than that is split, at line breaks. The next chunk of the same section opens with the last
 * OVERLAP_CHARS (or fewer, cut at a line or word boundary) of the previous one. A heading with no text of its own
 * yields no chunk; its title lives on in the heading path of what follows.
 */
export function chunkMarkdown(khId: string, body: string, bodyStartLine = 1): Chunk[] {
  const lines = body.split(/\r?\n/);
  const tokens = parseMarkdown(body);
  const sections: Section[] = [{ path: [], headingLine: undefined, blocks: [] }];
  const stack: { level: number; text: string }[] = [];

  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.level !== 0 || !token.map || token.nesting === -1) continue;
    const [start, end] = token.map;
    if (token.type === 'heading_open') {
      const level = Number(token.tag.slice(1));
      const text = tokens[i + 1]?.content.trim() ?? '';
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, text });
      sections.push({ path: stack.map((h) => h.text), headingLine: lines[start]!.trim(), blocks: [] });
      continue;
    }
    // markdown-it counts a list's trailing blank line as part of it; a chunk's lines end at its last text.
    let last = end;
    while (last > start && !lines[last - 1]!.trim()) last -= 1;
    const text = lines.slice(start, last).join('\n').trim();
    if (text) sections[sections.length - 1]!.blocks.push({ text, start, end: last });
  }

  const chunks: Omit<Chunk, 'chunkId' | 'ordinal'>[] = [];
  for (const section of sections) {
    if (section.blocks.length === 0) continue;
    const heading = section.path.join(' > ');
    const prefix = section.headingLine ? `${section.headingLine}\n\n` : '';
    let parts: Block[] = [];
    let overlap = '';
    const flush = () => {
      if (parts.length === 0) return;
      const text = parts.map((p) => p.text).join('\n\n');
      chunks.push({
        heading,
        content: `${prefix}${overlap ? `${overlap}\n\n` : ''}${text}`,
        startLine: parts[0]!.start + bodyStartLine,
        endLine: parts[parts.length - 1]!.end - 1 + bodyStartLine,
      });
      overlap = tail(text, OVERLAP_CHARS);
      parts = [];
    };
    for (const block of section.blocks.flatMap(splitLargeBlock)) {
      const size = parts.reduce((n, p) => n + p.text.length + 2, 0);
      if (parts.length > 0 && size + block.text.length > MAX_CHUNK_CHARS) flush();
      parts.push(block);
    }
    flush();
  }

  const seen = new Map<string, number>();
  return chunks.map((chunk, ordinal) => {
    const digest = crypto.createHash('sha256').update(`${chunk.heading}\n${chunk.content}`).digest('hex').slice(0, 16);
    const count = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, count);
    return { chunkId: `${khId}:${digest}${count > 1 ? `-${count}` : ''}`, ordinal, ...chunk };
  });
}

/** A block over the size limit, as consecutive line groups under it (a single over-long line is cut by characters). */
function splitLargeBlock(block: Block): Block[] {
  if (block.text.length <= MAX_CHUNK_CHARS) return [block];
  const pieces = block.text.split('\n').flatMap((line, offset) => {
    const cut = line.length > MAX_CHUNK_CHARS ? (line.match(new RegExp(`.{1,${MAX_CHUNK_CHARS}}`, 'g')) ?? []) : [line];
    return cut.map((text) => ({ text, line: block.start + offset }));
  });
  const out: Block[] = [];
  let group: typeof pieces = [];
  let size = 0;
  const push = () => {
    const text = group.map((p) => p.text).join('\n');
    if (text.trim()) out.push({ text, start: group[0]!.line, end: group[group.length - 1]!.line + 1 });
    group = [];
    size = 0;
  };
  for (const piece of pieces) {
    if (group.length > 0 && size + piece.text.length + 1 > MAX_CHUNK_CHARS) push();
    group.push(piece);
    size += piece.text.length + 1;
  }
  if (group.length > 0) push();
  return out;
}

/** The end of `text`, at most `max` characters, starting at a line break or else a word boundary. */
function tail(text: string, max: number): string {
  if (text.length <= max) return text;
  const window = text.slice(text.length - max);
  const newline = window.indexOf('\n');
  if (newline >= 0 && newline < window.length - 1) return window.slice(newline + 1).trim();
  const space = window.search(/\s/);
  return (space >= 0 ? window.slice(space + 1) : window).trim();
}
