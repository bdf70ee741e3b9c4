import type { RichText } from './api-schemas';

/** Applies `mark` to the text between leading and trailing whitespace: `** bold **` is not bold in CommonMark. */
function around(text: string, mark: (core: string) => string): string {
  // Index scans rather than a regex: a lazy core between two greedy runs backtracks on every span.
  let start = 0;
  while (start < text.length && isSpace(text.charCodeAt(start))) start += 1;
  if (start === text.length) return text;
  let end = text.length;
  while (isSpace(text.charCodeAt(end - 1))) end -= 1;
  return `${text.slice(0, start)}${mark(text.slice(start, end))}${text.slice(end)}`;
}

/** `\s` as a JavaScript regex reads it. */
function isSpace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code > 127 && /\s/.test(String.fromCharCode(code));
}

function wrap(text: string, marker: string): string {
  return around(text, (core) => `${marker}${core}${marker}`);
}

/** Inline code may not contain its own fence; a longer backtick run than any inside keeps it literal. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * One rich-text span as markdown. Annotations stack in the spec's order — code, bold, italic, strikethrough,
 * underline — so code is innermost; underline renders as italic and adds nothing when the span is already italic.
 * A link wraps the already annotated text.
 */
export function renderSpan(span: RichText): string {
  const a = span.annotations;
  let text = span.type === 'equation' ? `$${span.plain_text}$` : span.plain_text;
  if (a?.code) text = around(text, codeSpan);
  if (a?.bold) text = wrap(text, '**');
  if (a?.italic) text = wrap(text, '_');
  if (a?.strikethrough) text = wrap(text, '~~');
  if (a?.underline && !a.italic) text = wrap(text, '_');
  if (span.href) text = `[${text}](${span.href})`;
  return text;
}

export function renderRichText(spans: readonly RichText[] | undefined): string {
  let out = '';
  for (const span of spans ?? []) out += renderSpan(span);
  return out;
}

export function plainText(spans: readonly RichText[] | undefined): string {
  return (spans ?? []).map((span) => span.plain_text).join('');
}
