/**
 * What every config file loader shares (model catalog, team controls, scenarios): one error for "this file cannot be
 * used", and parsing YAML or JSON text into one line per problem before the file's own schema runs.
 */
import path from 'node:path';
import { parseDocument } from 'yaml';
import type { Checked } from './schema-helpers';

/**
 * A config file (or a folder of them) that cannot be used. The message's first line names the file and what could
 * not be done; each further line is one problem, e.g. `models[3] openai/gpt-5: pricing_per_1k is required ...`.
 */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';

  constructor(
    /** The file as given (possibly relative, when that is the problem), or the folder for problems across files. */
    readonly file: string,
    /** One line per problem, without indentation. */
    readonly problems: readonly string[],
    /** What could not be done, e.g. `cannot load the model catalog`. */
    heading: string,
  ) {
    super(`${file}: ${heading}\n${problems.map((line) => `  ${line}`).join('\n')}`);
    this.heading = heading;
  }

  readonly heading: string;

  /**
   * The message with the file's base name only, for a client or a job's events: the server's folders are not theirs
   * to read. Problem lines never carry a path (a read failure is `file not found`, never the system's path).
   */
  publicMessage(): string {
    return `${path.basename(this.file)}: ${this.heading}\n${this.problems.map((line) => `  ${line}`).join('\n')}`;
  }
}

/** The text formats config files are written in. */
export type ConfigFormat = 'yaml' | 'json';

/** Parses config text; an empty file and every syntax error are problems, one line each. Never throws. */
export function parseConfigText(text: string, format: ConfigFormat): Checked<unknown> {
  if (text.trim() === '') return { ok: false, problems: ['the file is empty'] };
  return format === 'yaml' ? parseYaml(text) : parseJson(text);
}

/**
 * A read failure as one problem line: `file not found`, or the system's error code. Node's message repeats the full
 * path, which the error's heading already names and which must not reach a client through `publicMessage`.
 */
export function cannotRead(err: unknown, what: 'file' | 'folder'): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${what} not found`;
  return `cannot read the ${what} (${code ?? 'unknown error'})`;
}

function parseYaml(text: string): Checked<unknown> {
  // Duplicate keys are errors here (the yaml package's default), so a repeated key cannot silently shadow another.
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return { ok: false, problems: doc.errors.map((err) => `YAML: ${firstLine(err.message)}`) };
  return { ok: true, value: doc.toJS() as unknown };
}

function parseJson(text: string): Checked<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, problems: [`JSON: ${firstLine((err as Error).message)}`] };
  }
}

/** The yaml package appends a source excerpt after the first line; keep one line per problem. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/:\s*$/, '');
}
