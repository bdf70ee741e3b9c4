import { sha256Hex } from './blob-store';

/** One file of a workspace as it stood at a level run's end: its path in the workspace, its blob, its size. */
export interface ManifestEntry {
  path: string;
  sha256: string;
  sizeBytes: number;
}

/**
 * A workspace at one point: every file, sorted by path (UTF-16 code units, as JavaScript sorts, so every process
 * sorts the same way). Its digest names it, so two level runs (or a job and its fork) that left the same files share
 * one manifest.
 */
export interface Manifest {
  sha256: string;
  entries: ManifestEntry[];
  totalBytes: number;
}

/** The canonical bytes of a manifest: a JSON array of `[path, sha256, size]`, sorted by path. Stored as a blob too. */
export function manifestBytes(entries: readonly ManifestEntry[]): Buffer {
  const sorted = sortEntries(entries);
  return Buffer.from(JSON.stringify(sorted.map((e) => [e.path, e.sha256, e.sizeBytes])), 'utf8');
}

export function buildManifest(entries: readonly ManifestEntry[]): Manifest {
  const sorted = sortEntries(entries);
  return {
    sha256: sha256Hex(manifestBytes(sorted)),
    entries: sorted,
    totalBytes: sorted.reduce((sum, e) => sum + e.sizeBytes, 0),
  };
}

/** The manifest read back from its canonical bytes (a blob), checked against the digest it is stored under. */
export function parseManifestBytes(sha256: string, bytes: Buffer): Manifest {
  if (sha256Hex(bytes) !== sha256) throw new Error(`manifest ${sha256} does not match its bytes`);
  const rows = JSON.parse(bytes.toString('utf8')) as Array<[string, string, number]>;
  return buildManifest(rows.map(([path, blob, sizeBytes]) => ({ path, sha256: blob, sizeBytes })));
}

/** What changed from one manifest to another, path by path: what compare and a fork's restore both walk. */
export interface ManifestChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
  before?: ManifestEntry;
  after?: ManifestEntry;
}

export function diffManifests(before: readonly ManifestEntry[], after: readonly ManifestEntry[]): ManifestChange[] {
  const old = new Map(before.map((e) => [e.path, e]));
  const changes: ManifestChange[] = [];
  for (const entry of sortEntries(after)) {
    const was = old.get(entry.path);
    old.delete(entry.path);
    if (!was) changes.push({ path: entry.path, change: 'added', after: entry });
    else if (was.sha256 !== entry.sha256)
      changes.push({ path: entry.path, change: 'changed', before: was, after: entry });
  }
  for (const was of old.values()) changes.push({ path: was.path, change: 'removed', before: was });
  return changes.sort((a, b) => compare(a.path, b.path));
}

function sortEntries(entries: readonly ManifestEntry[]): ManifestEntry[] {
  return [...entries].sort((a, b) => compare(a.path, b.path));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
