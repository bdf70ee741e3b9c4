/**
 * Loads the model catalog and the team-controls file, and answers whether a provider has a key
 * (`resolveProviderKey`); whether the team may use a model is `allowedByControls` in controls.ts.
 *
 * The loaders are async (they read with fs/promises) and run once at boot; they never fall back to defaults,
 * because a silently empty catalog would route every job to nothing. Every failure is one `ConfigFileError`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkCatalog, checkTeamControls } from './schema';
import { cannotRead, ConfigFileError, parseConfigText } from '../../config/config-file';
import type { ConfigFormat } from '../../config/config-file';
import type { Checked } from '../../config/schema-helpers';
import type { Catalog, ProviderEntry, TeamControls } from './types';
import { noSecrets, type SecretStore } from '../../secrets/store';

/** The file formats the loaders read, chosen by extension. */
export type CatalogFormat = ConfigFormat;

/** `.yaml`/`.yml` → yaml, `.json` → json, anything else → undefined (refused). */
export function formatOf(file: string): CatalogFormat | undefined {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  if (ext === '.json') return 'json';
  return undefined;
}

/** Loads and validates the model catalog at an absolute path; throws `ConfigFileError` listing every problem. */
export async function loadCatalog(file: string): Promise<Catalog> {
  return loadFile(file, 'model catalog', checkCatalog);
}

/** Loads and validates the team-controls file at an absolute path; throws `ConfigFileError` listing every problem. */
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

/** A provider's key and where it came from; `none` when no key resolved (or the provider takes none). */
export interface ProviderKey {
  key?: string;
  source: 'env' | 'secret' | 'none';
}

/**
 * Finds a provider's key at the moment of use: the `auth.env` variable when it is set and not blank (env wins, so an
 * operator can override a stored secret), else the `auth.secret_id` secret as the store holds it now (a rotated file
 * is seen without a restart). Throws only what the store throws (an unreadable secret file).
 */
export async function resolveProviderKey(
  entry: ProviderEntry,
  env: Readonly<Record<string, string | undefined>>,
  secrets: SecretStore = noSecrets,
): Promise<ProviderKey> {
  const auth = entry.auth;
  if (auth === undefined) return { source: 'none' };
  const fromEnv = auth.env === undefined ? undefined : env[auth.env];
  if (isPresent(fromEnv)) return { key: fromEnv, source: 'env' };
  const fromSecret = auth.secret_id === undefined ? undefined : await secrets.get(auth.secret_id);
  if (isPresent(fromSecret)) return { key: fromSecret, source: 'secret' };
  return { source: 'none' };
}

/** A provider without `auth` (the demo model, a local server) is configured; otherwise it is when a key resolves. */
export async function isConfigured(
  entry: ProviderEntry,
  env: Readonly<Record<string, string | undefined>>,
  secrets: SecretStore = noSecrets,
): Promise<boolean> {
  if (entry.auth === undefined) return true;
  return (await resolveProviderKey(entry, env, secrets)).source !== 'none';
}

async function loadFile<T>(file: string, what: string, check: (input: unknown) => Checked<T>): Promise<T> {
  const fail = (problems: string[]) => new ConfigFileError(file, problems, `cannot load the ${what}`);
  // Containers start in an arbitrary directory, so a relative path would silently depend on it.
  if (!path.isAbsolute(file)) throw fail([`the path must be absolute (got "${file}")`]);
  const format = formatOf(file);
  if (format === undefined) throw fail(['the file must end in .yaml, .yml or .json']);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw fail([cannotRead(err, 'file')]);
  }
  const checked = parseAndCheck(text, format, check);
  if (!checked.ok) throw fail(checked.problems);
  return checked.value;
}

function parseAndCheck<T>(text: string, format: CatalogFormat, check: (input: unknown) => Checked<T>): Checked<T> {
  const parsed = parseConfigText(text, format);
  return parsed.ok ? check(parsed.value) : parsed;
}

function isPresent(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}
