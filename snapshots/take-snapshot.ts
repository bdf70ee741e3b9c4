import fs from 'node:fs/promises';
import type { Pool } from 'pg';
import { resolveWorkspacePath } from '../config/workspace-path';
import { listJobFiles } from '../db/files';
import {
  findLevelRunSnapshot,
  latestJobSnapshot,
  lockBlobsShared,
  manifestEntries,
  recordLevelRunSnapshot,
  type LevelRunSnapshot,
} from '../db/manifests';
import { withTransaction } from '../db/transaction';
import { sha256Hex, type BlobStore } from './blob-store';
import { buildManifest, manifestBytes, type ManifestEntry } from './manifest';

export interface SnapshotDeps {
  pool: Pool;
  workspaceRoot: string;
  blobs: BlobStore;
}

/**
 * Records the job's workspace as it stands now as the manifest `levelRunId` ended with, and returns it.
 *
 * The workspace is the job's files (its `job_files` rows, what GET /v1/jobs/:id/files lists), with the bytes its
 * working directory holds. A file the job's previous snapshot holds at the same path and hash is carried over without
 * reading it; any other is read, hashed and stored as a blob unless the store holds it already (from this or any other
 * job). The manifest's own canonical bytes are stored as a blob too, so a manifest can be read from the store alone.
 *
 * Idempotent: a level run that already has a snapshot gets it back unchanged (written once), so a retried activity
 * returns what an earlier attempt recorded. Safe against garbage collection: blobs this call found already stored may
 * be old enough to collect, so it confirms them under the shared side of the blob lock in the same transaction that
 * records the manifest (collection deletes only under the exclusive side, after re-checking references); one that
 * vanished in between is stored again.
 */
export async function snapshotWorkspace(
  deps: SnapshotDeps,
  input: { jobId: string; levelRunId: string },
  onProgress: (filesDone: number) => void = () => undefined,
): Promise<LevelRunSnapshot> {
  const existing = await findLevelRunSnapshot(deps.pool, input.levelRunId);
  if (existing) return existing;

  const files = await listJobFiles(deps.pool, input.jobId);
  const previous = await latestJobSnapshot(deps.pool, input.jobId);
  const carried = new Map(
    previous ? (await manifestEntries(deps.pool, previous.manifestSha256)).map((e) => [e.path, e]) : [],
  );
  const entries: ManifestEntry[] = [];
  /** Blobs found already stored, with how to store them again should collection take them first. */
  const reused = new Map<string, () => Promise<Buffer | undefined>>();
  for (const file of files) {
    const before = carried.get(file.path);
    if (before && before.sha256 === file.sha256) {
      entries.push(before);
      continue;
    }
    const target = resolveWorkspacePath(deps.workspaceRoot, input.jobId, file.path);
    if (!target.ok) continue;
    const bytes = await readIfThere(target.absolute);
    // A row whose file is gone has nothing to snapshot; the listing of the working directory skips it too.
    if (!bytes) continue;
    const sha256 = sha256Hex(bytes);
    if (await deps.blobs.has(sha256)) reused.set(sha256, () => readIfThere(target.absolute));
    else await deps.blobs.put(bytes);
    entries.push({ path: file.path, sha256, sizeBytes: bytes.length });
    onProgress(entries.length);
  }
  const manifest = buildManifest(entries);
  const canonical = manifestBytes(manifest.entries);
  if (await deps.blobs.has(manifest.sha256)) reused.set(manifest.sha256, async () => canonical);
  else await deps.blobs.put(canonical);

  return withTransaction(deps.pool, async (client) => {
    await lockBlobsShared(client);
    for (const [sha256, reread] of reused) {
      if (await deps.blobs.has(sha256)) continue;
      const bytes = await reread();
      if (!bytes || sha256Hex(bytes) !== sha256) {
        // The file changed under the snapshot: fail this attempt; the retry snapshots what is there then.
        throw new Error(`a blob of ${input.levelRunId} was collected and its file has changed since; retry`);
      }
      await deps.blobs.put(bytes);
    }
    return recordLevelRunSnapshot(client, { levelRunId: input.levelRunId, jobId: input.jobId, manifest });
  });
}

async function readIfThere(file: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw err;
  }
}
