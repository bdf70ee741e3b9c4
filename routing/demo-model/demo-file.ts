import { splitRequest } from './prompt-contract';

/**
 * The one home of the rule deciding which file the demo executor writes and what it puts in it.
 * Integration tests compute expected files with `demoFileFor`, so any change here is a contract change.
 */

export const DEFAULT_TARGET_PATH = 'output.md';
export const GREETING_BODY = 'Hello, reader! Welcome.';

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;
const TOKEN_PATTERN = /[\w./-]+/g;
const PATH_LIKE = /^(?:[\w.-]*\/)*[\w-][\w.-]*\.[A-Za-z][A-Za-z0-9]{1,9}$/;
const GREETING_WORDS = /\b(?:greet|greets|greeting|hello|welcome)\b/i;

/**
 * The path-like tokens of `text`, in order, normalised as the target rule normalises them
 * (trailing dots dropped, leading `./` dropped). Unsafe paths are returned as they are.
 */
export function pathTokensIn(text: string): string[] {
  const tokens = text.replace(URL_PATTERN, ' ').match(TOKEN_PATTERN) ?? [];
  return tokens
    .map((token) => token.replace(/\.+$/, '').replace(/^(?:\.\/)+/, ''))
    .filter((token) => PATH_LIKE.test(token));
}

/** The file a job prompt asks for: its first path-like token if that is a safe relative path, else `output.md`. */
export function targetPathFor(jobPrompt: string): string {
  const first = pathTokensIn(jobPrompt)[0];
  if (first === undefined || first.startsWith('/') || first.includes('..')) return DEFAULT_TARGET_PATH;
  return first;
}

/** `docs/getting-started.md` → `Getting Started`; words split on `-`, `_`, `.` and spaces, first letters upper-cased. */
export function titleFor(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const stem = base.slice(0, base.lastIndexOf('.'));
  const words = stem.split(/[-_.\s]+/).filter((word) => word.length > 0);
  if (words.length === 0) return base;
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

/** True when the job prompt asks for a greeting (whole words greet, greets, greeting, hello, welcome; any case). */
export function isGreeting(jobPrompt: string): boolean {
  return GREETING_WORDS.test(jobPrompt);
}

/** The job prompt on one line: whitespace runs collapsed to single spaces, ends trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The file the demo executor writes for a request.
 *
 * `request` is the user's job prompt, or a whole Keel user message (then only the text after its last
 * `Request:` marker counts). With `jobPrompt` that text, trimmed:
 * - path: the first path-like token of `jobPrompt`, i.e. a run of `[A-Za-z0-9_./-]` (URLs removed first;
 *   trailing dots and leading `./` dropped) whose last segment is `name.ext`, with a name starting with a
 *   letter, digit, `_` or `-` and an extension of 2–10 letters/digits starting with a letter
 *   (`hello.md`, `docs/intro.txt`, `src/app.ts`; not `e.g.`, `v1.2`, `.env`). If there is none, or it starts
 *   with `/` or contains `..`, the path is `output.md`.
 * - content: `# <title>\n\n<body>\n`, where title comes from the file name without its extension, split on
 *   `-`, `_`, `.` and spaces, each word's first letter upper-cased (`hello.md` → `Hello`, `getting-started.md`
 *   → `Getting Started`); body is `Hello, reader! Welcome.` when `jobPrompt` contains one of the whole words
 *   greet, greets, greeting, hello, welcome (any case), else
 *   `This file was written for the request: "<jobPrompt with whitespace runs collapsed to one space>".`
 */
export function demoFileFor(request: string): { path: string; content: string } {
  const { jobPrompt } = splitRequest(request);
  const path = targetPathFor(jobPrompt);
  return { path, content: `# ${titleFor(path)}\n\n${bodyFor(jobPrompt)}\n` };
}

/** The one-line body of the demo file for a job prompt (see `demoFileFor`). */
export function bodyFor(jobPrompt: string): string {
  return isGreeting(jobPrompt) ? GREETING_BODY : `This file was written for the request: "${oneLine(jobPrompt)}".`;
}
