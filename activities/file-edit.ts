// No imports, on purpose: workflow code imports EDIT_FILE_TOOL_SCHEMA from here, and the workflow
// bundle must not pull in Node modules. Everything below is pure and deterministic.

/** Why an edit was refused; `reason` is written for the model, which sees it as the tool result. */
export type SurgicalEditRefusal = 'empty-old' | 'no-op' | 'not-found' | 'ambiguous';

export type SurgicalEditResult =
  { ok: true; content: string } | { ok: false; kind: SurgicalEditRefusal; reason: string };

/** Longest excerpt of file text quoted back to the model; keeps tool results (and so prompts) small. */
const EXCERPT_CHARS = 120;
/** How many opening lines to show when nothing in the file resembles `old`. */
const HEAD_LINES = 3;
/** Lines scanned for a "closest line" hint; bounds the work on very large files. */
const MAX_SCANNED_LINES = 5_000;
/** Below this bigram similarity a "closest" line is noise, so the file's first lines are shown instead. */
const MIN_SIMILARITY = 0.5;
/** Occurrence lines listed in an "ambiguous" refusal. */
const MAX_LISTED_OCCURRENCES = 5;

/**
 * Replaces the exact text `old` in `content` with `replacement`. `old` must occur exactly once
 * (overlapping occurrences count: in "aaa", "aa" occurs twice), so the model can never edit a
 * span it did not mean. Matching is literal (no regular expressions, no whitespace folding).
 *
 * Refusals, each with a reason the model can act on:
 * - `empty-old`: `old` is empty, so there is no span to locate;
 * - `no-op`: `old === replacement`, the edit would change nothing;
 * - `not-found`: with a hint, the file's line most like `old` (or its first lines), and a note
 *   when `replacement` is already present (the edit was probably applied earlier);
 * - `ambiguous`: how many times `old` occurs, on which lines, and to include more surrounding text.
 */
export function applySurgicalEdit(content: string, old: string, replacement: string): SurgicalEditResult {
  if (old.length === 0) {
    return {
      ok: false,
      kind: 'empty-old',
      reason:
        '"old" is empty; copy the exact text to replace from the file (to create or replace a whole file, use write_file)',
    };
  }
  if (old === replacement) {
    return { ok: false, kind: 'no-op', reason: '"old" and "new" are identical, so the edit would change nothing' };
  }

  const positions = occurrences(content, old);
  if (positions.length === 0) {
    return { ok: false, kind: 'not-found', reason: notFoundReason(content, old, replacement) };
  }
  if (positions.length > 1) {
    const lines = positions.slice(0, MAX_LISTED_OCCURRENCES).map((at) => lineNumberAt(content, at));
    const more = positions.length > lines.length ? ', ...' : '';
    return {
      ok: false,
      kind: 'ambiguous',
      reason:
        `"old" occurs ${positions.length} times in the file (at lines ${lines.join(', ')}${more}); ` +
        'include more surrounding text in "old" so it matches exactly one place',
    };
  }

  const at = positions[0]!;
  return { ok: true, content: content.slice(0, at) + replacement + content.slice(at + old.length) };
}

/**
 * JSON-schema `parameters` of the `edit_file` tool. A plain literal (this module imports nothing),
 * so workflow code can import it into its tool definitions.
 */
export const EDIT_FILE_TOOL_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'relative path of an existing file in the workspace, e.g. docs/intro.md' },
    old: {
      type: 'string',
      description: 'the exact text to replace, copied from the file including whitespace; must occur exactly once',
    },
    new: { type: 'string', description: 'the text that replaces it' },
  },
  required: ['path', 'old', 'new'],
  additionalProperties: false,
};

/** A description to pair with EDIT_FILE_TOOL_SCHEMA in the workflow's `edit_file` tool definition. */
export const EDIT_FILE_TOOL_DESCRIPTION =
  'Replace one exact span of an existing workspace file. "old" must occur exactly once in the file; ' +
  'include enough surrounding text to make it unique. Use write_file to create a file or replace all of it.';

/** Start offsets of `needle` in `haystack`, overlapping matches included (literal `indexOf`, no regex). */
function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found.push(at);
  return found;
}

function lineNumberAt(content: string, offset: number): number {
  let line = 1;
  for (let i = content.indexOf('\n'); i !== -1 && i < offset; i = content.indexOf('\n', i + 1)) line += 1;
  return line;
}

function notFoundReason(content: string, old: string, replacement: string): string {
  const parts = ['"old" was not found in the file (matching is exact, including whitespace and line breaks)'];
  if (content.length === 0) {
    parts.push('the file is empty');
  } else {
    const lines = content.split('\n');
    const closest = closestLine(lines, firstMeaningfulLine(old));
    if (closest) {
      parts.push(`the closest line is ${closest.number}: ${excerpt(closest.text)}`);
    } else {
      const head = lines.slice(0, HEAD_LINES).map((line, i) => `${i + 1}: ${excerpt(line)}`);
      parts.push(`nothing similar; the file begins with ${head.join(' / ')}`);
    }
  }
  if (replacement.length > 0 && content.includes(replacement)) {
    parts.push('the "new" text is already in the file, so this edit may have been applied already');
  }
  return parts.join('; ');
}

function firstMeaningfulLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? text.trim()
  );
}

/** The file line most like `probe` by bigram similarity, or undefined when none is close enough. */
function closestLine(lines: string[], probe: string): { number: number; text: string } | undefined {
  if (probe.length === 0) return undefined;
  const probeBigrams = bigrams(probe);
  let best: { number: number; text: string; score: number } | undefined;
  const scanned = Math.min(lines.length, MAX_SCANNED_LINES);
  for (let i = 0; i < scanned; i += 1) {
    const text = lines[i]!;
    const trimmed = text.trim();
    if (trimmed.length === 0) continue;
    const score = containmentScore(trimmed, probe) ?? dice(probeBigrams, bigrams(trimmed));
    if (!best || score > best.score) best = { number: i + 1, text, score };
  }
  return best && best.score >= MIN_SIMILARITY ? best : undefined;
}

/**
 * A line that contains the probe, or most of it, is the likeliest target (only indentation or the
 * neighbouring lines differ), so it ranks above any fuzzy match: 1 plus how much of it is shared.
 * A short line merely inside the probe (a lone "}") does not count.
 */
function containmentScore(line: string, probe: string): number | undefined {
  if (line.includes(probe)) return 1 + probe.length / line.length;
  if (probe.includes(line) && line.length * 2 >= probe.length) return 1 + line.length / probe.length;
  return undefined;
}

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i += 1) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** Sørensen–Dice coefficient over character bigrams: 1 for identical strings, 0 for nothing shared. */
function dice(a: Map<string, number>, b: Map<string, number>): number {
  let sizeA = 0;
  let sizeB = 0;
  let shared = 0;
  for (const n of a.values()) sizeA += n;
  for (const [pair, n] of b) {
    sizeB += n;
    shared += Math.min(n, a.get(pair) ?? 0);
  }
  return sizeA + sizeB === 0 ? 0 : (2 * shared) / (sizeA + sizeB);
}

/** Quotes a line for the model: JSON-escaped so tabs and trailing spaces are visible, and short. */
function excerpt(line: string): string {
  const short = line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
  return JSON.stringify(short);
}
