/**
 * What a level's context (the text above `Request:`) says about files already in the job's workspace: a line
 * `Workspace file <path> exists`, and optionally the file's content as a fenced block right after a line
 * `Current content of <path>:`. Only fenced content counts, because file content has blank lines and headings
 * of its own, so nothing else marks where it ends. When several blocks show one path, the last wins. Paths compare
 * with surrounding quotes or backticks and a leading `./` dropped.
 */

const EXISTS_LINE = /^[ \t]*Workspace file[ \t]+(\S+)[ \t]+exists\.?[ \t]*$/;
const CONTENT_LINE = /^[ \t]*Current content of[ \t]+(\S+):[ \t]*$/;
const OPENING_FENCE = /^[ \t]*(`{3,}|~{3,})/;

/** True when the context has a line `Workspace file <path> exists` (optionally ending in a dot). */
export function workspaceFileExists(context: string, path: string): boolean {
  return linesOf(context).some((line) => samePath(EXISTS_LINE.exec(line)?.[1], path));
}

/** The fenced content shown under `Current content of <path>:`; undefined when absent or its fence is not closed. */
export function knownContentOf(context: string, path: string): string | undefined {
  const lines = linesOf(context);
  let content: string | undefined;
  lines.forEach((line, index) => {
    if (!samePath(CONTENT_LINE.exec(line)?.[1], path)) return;
    const fenced = fencedBlockAt(lines, index + 1);
    if (fenced !== undefined) content = fenced;
  });
  return content;
}

/**
 * The line an append can anchor on: the last non-blank line of the known content, provided it occurs once in
 * that content (an edit replaces its `old` text, so a repeated one would be ambiguous); else undefined.
 */
export function appendAnchorOf(context: string, path: string): string | undefined {
  if (!workspaceFileExists(context, path)) return undefined;
  const content = knownContentOf(context, path);
  const anchor = content?.split('\n').findLast((line) => line.trim().length > 0);
  if (content === undefined || anchor === undefined) return undefined;
  return occurrencesOf(content, anchor) === 1 ? anchor : undefined;
}

/** Literal occurrences, overlapping ones included, as Keel's `edit_file` counts them. */
function occurrencesOf(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

function fencedBlockAt(lines: readonly string[], start: number): string | undefined {
  const fence = OPENING_FENCE.exec(lines[start] ?? '')?.[1];
  if (fence === undefined) return undefined;
  const closing = new RegExp(`^[ \\t]*${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
  const end = lines.findIndex((line, index) => index > start && closing.test(line));
  return end < 0 ? undefined : lines.slice(start + 1, end).join('\n');
}

function samePath(written: string | undefined, path: string): boolean {
  return written !== undefined && normalise(written) === normalise(path);
}

function normalise(path: string): string {
  return path.replace(/^[`'"]+|[`'"]+$/g, '').replace(/^(?:\.\/)+/, '');
}

function linesOf(text: string): string[] {
  return text.split(/\r?\n/);
}
