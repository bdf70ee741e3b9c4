import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import { resolveWorkspacePath } from '../config/workspace-path';
import { recordJobFile } from '../db/files';
import { manifestEntries } from '../db/manifests';
import { sha256Hex, type BlobStore } from './blob-store';
import type { ManifestEntry } from './manifest';

/** A manifest's blobs the store no longer holds: what a fork refuses with 409 `blobs_missing`. */
export async function missingBlobs(blobs: BlobStore, entries: readonly ManifestEntry[]): Promise<ManifestEntry[]> {
  const missing: ManifestEntry[] = [];
  // One existence check per distinct blob: a workspace often holds the same bytes under several paths.
  const checked = new Map<string, boolean>();
  for (const entry of entries) {
    let there = checked.get(entry.sha256);
    if (there === undefined) {
      there = await blobs.has(entry.sha256);
      checked.set(entry.sha256, there);
    }
    if (!there) missing.push(entry);
  }
  return missing;
}

const TEMPORARY_SUFFIX = '.restore';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A worker killed between writing a file's temporary and renaming it leaves `<file>.<uuid>.restore` behind: a file the
 * manifest does not name, which list_files and the job's next command would see. The retry removes them before it
 * writes the file. (An attempt still running elsewhere whose temporary goes fails its rename and is retried.)
 */
async function removeStaleTemporaries(file: string): Promise<void> {
  const prefix = `${path.basename(file)}.`;
  const names = await fs.readdir(path.dirname(file));
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMPORARY_SUFFIX)) continue;
    if (!UUID.test(name.slice(prefix.length, -TEMPORARY_SUFFIX.length))) continue;
    await fs.rm(path.join(path.dirname(file), name), { force: true });
  }
}

/**
 * Writes the files of manifest `manifestSha256` into job `jobId`'s working directory, byte for byte, and records each
 * as the job's file (its `job_files` row), so the job's first snapshot carries every unchanged file over without
 * reading it. Each blob's bytes are checked against its name before they are written; each file is written to a
 * temporary name and renamed into place, so a retry after a worker died half-way writes the rest, rewrites nothing
 * torn and removes the temporaries a killed attempt left. Idempotent.
 */
export async function restoreWorkspace(
  deps: { pool: Pool; workspaceRoot: string; blobs: BlobStore },
  input: { jobId: string; manifestSha256: string },
  onProgress: (filesDone: number) => void = () => undefined,
): Promise<{ files: number; bytes: number }> {
  const entries = await manifestEntries(deps.pool, input.manifestSha256);
  let bytesWritten = 0;
  for (const [index, entry] of entries.entries()) {
    const target = resolveWorkspacePath(deps.workspaceRoot, input.jobId, entry.path);
    // Paths in a manifest were resolved inside a workspace when snapshotted; one that no longer is stays out.
    if (!target.ok)
      throw new Error(`manifest ${input.manifestSha256} names a path outside the workspace: ${entry.path}`);
    const bytes = await deps.blobs.get(entry.sha256);
    if (!bytes) throw new Error(`blob ${entry.sha256} of ${entry.path} is missing from the blob store`);
    if (sha256Hex(bytes) !== entry.sha256)
      throw new Error(`blob ${entry.sha256} of ${entry.path} does not match its name`);
    await fs.mkdir(path.dirname(target.absolute), { recursive: true });
    await removeStaleTemporaries(target.absolute);
    const temporary = `${target.absolute}.${crypto.randomUUID()}${TEMPORARY_SUFFIX}`;
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, target.absolute);
    await recordJobFile(deps.pool, input.jobId, { path: entry.path, sha256: entry.sha256, sizeBytes: entry.sizeBytes });
    bytesWritten += bytes.length;
    onProgress(index + 1);
  }
  return { files: entries.length, bytes: bytesWritten };
}
