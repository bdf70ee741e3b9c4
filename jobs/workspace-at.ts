import type { Pool } from 'pg';
import { findLevelRunSnapshot, manifestEntries, manifestEntry, type LevelRunSnapshot } from '../db/manifests';
import { Conflict, Refusal } from '../refusals/refusal';
import type { BlobStore } from '../snapshots/blob-store';
import type { ManifestEntry } from '../snapshots/manifest';

/**
 * The job's snapshot at a level run of its own. A level run of another job, one that never ran, or one that ran
 * before snapshots (or failed before its end) has none: 404 `level_run_not_found`, so another job's level ids reveal
 * nothing.
 */
export async function snapshotAt(pool: Pool, jobId: string, levelRunId: string): Promise<LevelRunSnapshot> {
  const snapshot = await findLevelRunSnapshot(pool, levelRunId);
  if (!snapshot || snapshot.jobId !== jobId) {
    throw new Refusal(
      'not_found',
      'level_run_not_found',
      `job ${jobId} has no workspace snapshot at level run ${JSON.stringify(levelRunId)}: name the level_id of a level ` +
        `run of this job that finished (its level_finished event)`,
    );
  }
  return snapshot;
}

/** The workspace as it stood after `levelRunId`: every file, sorted by path. */
export async function filesAt(
  pool: Pool,
  jobId: string,
  levelRunId: string,
): Promise<{ snapshot: LevelRunSnapshot; files: ManifestEntry[] }> {
  const snapshot = await snapshotAt(pool, jobId, levelRunId);
  return { snapshot, files: await manifestEntries(pool, snapshot.manifestSha256) };
}

/** One file's bytes as they stood after `levelRunId`, or undefined when the workspace had no such file then. */
export async function fileAt(
  deps: { pool: Pool; blobs: BlobStore },
  jobId: string,
  levelRunId: string,
  path: string,
): Promise<Buffer | undefined> {
  const snapshot = await snapshotAt(deps.pool, jobId, levelRunId);
  const entry = await manifestEntry(deps.pool, snapshot.manifestSha256, path);
  if (!entry) return undefined;
  const bytes = await deps.blobs.get(entry.sha256);
  if (!bytes) {
    throw new Conflict(
      'blob_missing',
      `the content of ${path} at level run ${levelRunId} (blob ${entry.sha256}) is missing from the blob store`,
    );
  }
  return bytes;
}
