import picomatch from 'picomatch';
import { parse, quote } from 'shell-quote';

/**
 * Which commands a level's model may run with `run_command` (docs/toolbelt.md). A scenario lists patterns under the
 * level's `commands:`; a command runs only when it is one plain command whose words match a pattern's.
 *
 * - A command is split into words like a POSIX shell would (quotes and escapes), by shell-quote. Anything a shell
 *   would treat as more than one command's words is refused, not interpreted: `;`, `&&`, `|`, redirections, `$(…)`,
 *   backticks' substitution, variables and unquoted wildcards. The model gets the reason, so it can call again.
 * - A pattern is words too. Each word of the pattern is a glob (picomatch, bash rules: `*` also matches `/`) matched
 *   against the command's word in the same place; a last word `...` matches any further words, or none.
 *   `npm test`, `npm run *`, `node --test ...`, `npx tsc --noEmit`.
 * - What runs is the matched words quoted again (`quote`), so the shell the sandbox starts sees exactly those words.
 */

/** A pattern's last word that lets the command have any further words. */
export const ANY_FURTHER_WORDS = '...';
/** Longer commands are refused before they are parsed. */
export const MAX_COMMAND_CHARS = 2_000;

export type CommandCheck =
  | { ok: true; words: string[]; script: string; pattern: string }
  /**
   * `unlisted`: the command is one plain command that no pattern matches (not a shell construct, not a level without
   * commands), so a project whose policy says so may send it to an approval; `script` is what would run.
   */
  | { ok: false; reason: string; unlisted?: { script: string } };

type Word = string | { op: string; pattern?: string } | { comment: string };

/** The words of a command, or why it is not one plain command. */
export function commandWords(command: string): { words: string[] } | { reason: string } {
  if (command.length > MAX_COMMAND_CHARS) return { reason: `longer than ${MAX_COMMAND_CHARS} characters` };
  if (/[\0\r\n]/.test(command)) return { reason: 'one line only: no newlines or NUL characters' };
  let variable: string | undefined;
  const parsed = parse(command, (name) => {
    variable ??= name;
    return '';
  }) as Word[];
  const words: string[] = [];
  for (const word of parsed) {
    if (typeof word === 'string') {
      words.push(word);
    } else if ('comment' in word) {
      return { reason: 'comments (#) are not allowed' };
    } else if (word.op === 'glob') {
      return { reason: `wildcards are not expanded (${word.pattern}): name the files, or use list_files first` };
    } else {
      return { reason: `shell operators are not allowed (${word.op}): run one command per call` };
    }
  }
  // After the operators: `$(…)` reads as a variable with no name followed by `(`.
  if (variable !== undefined) return { reason: `variables are not expanded ($${variable}): write the value itself` };
  if (words.length === 0) return { reason: 'the command is empty' };
  return { words };
}

/** The words of a pattern from a scenario: wildcards kept as the globs they are. */
function patternWords(pattern: string): string[] {
  return (parse(pattern) as Word[]).map((word) => {
    if (typeof word === 'string') return word;
    if ('op' in word && word.op === 'glob' && word.pattern) return word.pattern;
    throw new Error(`command pattern ${JSON.stringify(pattern)}: only words and wildcards are allowed`);
  });
}

/** Whether `words` match the pattern `pattern` (see the module comment). */
function matches(pattern: string[], words: string[]): boolean {
  const open = pattern.at(-1) === ANY_FURTHER_WORDS;
  const fixed = open ? pattern.slice(0, -1) : pattern;
  if (open ? words.length < fixed.length : words.length !== fixed.length) return false;
  return fixed.every((glob, index) => picomatch.isMatch(words[index]!, glob, { bash: true, dot: true }));
}

/**
 * Checks a command against a level's allowlist. Refusals say why in words a model can act on: an empty allowlist,
 * a command that is not one plain command, or one no pattern matches (the patterns are named).
 */
export function checkCommand(command: string, allowed: readonly string[]): CommandCheck {
  if (allowed.length === 0) return { ok: false, reason: 'this level may not run commands (its scenario allows none)' };
  const parsed = commandWords(command);
  if ('reason' in parsed) return { ok: false, reason: parsed.reason };
  const pattern = allowed.find((candidate) => matches(patternWords(candidate), parsed.words));
  if (pattern === undefined) {
    return {
      ok: false,
      reason: `not an allowed command; this level may run: ${allowed.map((p) => JSON.stringify(p)).join(', ')}`,
      unlisted: { script: quote(parsed.words) },
    };
  }
  return { ok: true, words: parsed.words, script: quote(parsed.words), pattern };
}

/** Checks a scenario's patterns when it is loaded, so a typo is the scenario's error, not a model's refusal. */
export function commandPatternProblem(pattern: string): string | undefined {
  try {
    const words = patternWords(pattern);
    if (words.length === 0) return 'must not be empty';
    if (words.slice(0, -1).includes(ANY_FURTHER_WORDS)) return `"${ANY_FURTHER_WORDS}" may only be the last word`;
    return undefined;
  } catch (err) {
    return (err as Error).message.replace(/^command pattern "[^"]*": /, '');
  }
}
