/**
 * Loads the model catalog and the team-controls file, and answers whether a provider has a key
 * (`resolveProviderKey`); whether the team may use a model is `allowedByControls` in controls.ts.
 *
 * The loaders are async (they read with fs/promises) and run once at boot; they never fall back to defaults,
 * because a silently empty catalog would route every job to nothing. Every failure is one `CatalogError`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { checkCatalog, checkTeamControls } from './schema';
import type { Checked } from '../../config/schema-helpers';
import type { Catalog, ProviderEntry, TeamControls } from './types';

/**
 * A catalog or team-controls file that cannot be used. The message's first line names the file; each further line
 * is one problem, e.g. `models[3] openai/gpt-5: pricing_per_1k is required for a non-free model`.
 */
export class CatalogError extends Error {
  override name = 'CatalogError';

  constructor(
    /** The file as given (possibly relative, when that is the problem). */
    readonly file: string,
    /** One line per problem, without indentation. */
    readonly problems: readonly string[],
    what: string,
  ) {
    super(`${file}: cannot load the ${what}\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
}

/** The file formats the loaders read, chosen by extension. */
export type CatalogFormat = 'yaml' | 'json';

/** `.yaml`/`.yml` → yaml, `.json` → json, anything else → undefined (refused). */
export function formatOf(file: string): CatalogFormat | undefined {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (ext === '.json') return 'json';
  return undefined;
}

/** Loads and validates the model catalog at an absolute path; throws `CatalogError` listing every problem. */
export async function loadCatalog(file: string): Promise<Catalog> {
  return loadFile(file, 'model catalog', checkCatalog);
}

/** Loads and validates the team-controls file at an absolute path; throws `CatalogError` listing every problem. */
export async function loadTeamControls(file: string): Promise<TeamControls> {
  return loadFile(file, 'team controls', checkTeamControls);
}

/** The problems in catalog text, one line each (empty when it is valid); never throws. For `keel models check`. */
export function catalogIssues(text: string, format: CatalogFormat): string[] {
  const checked = parseAndCheck(text, format, checkCatalog);
  return checked.ok ? [] : checked.problems;
}

/** The problems in team-controls text, one line each (empty when it is valid); never throws. */
export function teamControlsIssues(text: string, format: CatalogFormat): string[] {
  const checked = parseAndCheck(text, format, checkTeamControls);
  return checked.ok ? [] : checked.problems;
}

/** Looks up a secrets-store id; undefined when the store has no such secret. */
export type SecretLookup = (id: string) => string | undefined;

/** A provider's key and where it came from; `none` when no key resolved (or the provider takes none). */
export interface ProviderKey {
  key?: string;
  source: 'env' | 'secret' | 'none';
}

/**
 * Finds a provider's key: the `auth.env` variable when it is set and not blank (env wins, so an operator can
 * override a stored secret), else the `auth.secret_id` secret through `secrets` when given. Until the secrets store
 * lands callers pass no lookup, and only env resolves.
 */
export function resolveProviderKey(
  entry: ProviderEntry,
  env: Readonly<Record<string, string | undefined>>,
  secrets?: SecretLookup,
): ProviderKey {
  const auth = entry.auth;
  if (auth === undefined) return { source: 'none' };
  const fromEnv = auth.env === undefined ? undefined : env[auth.env];
  if (isPresent(fromEnv)) return { key: fromEnv, source: 'env' };
  const fromSecret = auth.secret_id === undefined || secrets === undefined ? undefined : secrets(auth.secret_id);
  if (isPresent(fromSecret)) return { key: fromSecret, source: 'secret' };
  return { source: 'none' };
}

/** A provider without `auth` (the demo model, a local server) is configured; otherwise it is when a key resolves. */
export function isConfigured(
  entry: ProviderEntry,
  env: Readonly<Record<string, string | undefined>>,
  secrets?: SecretLookup,
): boolean {
  if (entry.auth === undefined) return true;
  return resolveProviderKey(entry, env, secrets).source !== 'none';
}

async function loadFile<T>(file: string, what: string, check: (input: unknown) => Checked<T>): Promise<T> {
  const fail = (problems: string[]) => new CatalogError(file, problems, what);
  // Containers start in an arbitrary directory, so a relative path would silently depend on it.
  if (!path.isAbsolute(file)) throw fail([`the path must be absolute (got "${file}")`]);
  const format = formatOf(file);
  if (format === undefined) throw fail(['the file must end in .yaml, .yml or .json']);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw fail([code === 'ENOENT' ? 'file not found' : `cannot read the file (${(err as Error).message})`]);
  }
  const checked = parseAndCheck(text, format, check);
  if (!checked.ok) throw fail(checked.problems);
  return checked.value;
}

function parseAndCheck<T>(text: string, format: CatalogFormat, check: (input: unknown) => Checked<T>): Checked<T> {
  if (text.trim() === '') return { ok: false, problems: ['the file is empty'] };
  const parsed = format === 'yaml' ? parseYaml(text) : parseJson(text);
  if (!parsed.ok) return parsed;
  return check(parsed.value);
}

function parseYaml(text: string): Checked<unknown> {
  // Duplicate keys are errors here (the yaml package's default), so a repeated provider cannot shadow another.
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

function isPresent(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}
