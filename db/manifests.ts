import type { Pool, PoolClient } from 'pg';

type Queryable = Pick<Pool | PoolClient, 'query'>;

/** One file of a manifest (snapshots/manifest.ts builds them; this layer only stores them). */
export interface ManifestFileRow {
  path: string;
  sha256: string;
  sizeBytes: number;
}

/** A manifest as stored: its digest, its files, their total size. */
interface ManifestRecord {
  sha256: string;
  entries: ManifestFileRow[];
  totalBytes: number;
}

/** A level run's snapshot as recorded: which manifest it ended with, and that manifest's totals. */
export interface LevelRunSnapshot {
  levelRunId: string;
  jobId: string;
  manifestSha256: string;
  fileCount: number;
  totalBytes: number;
  createdAt: Date;
}

interface SnapshotRow {
  level_run_id: string;
  job_id: string;
  manifest_sha256: string;
  file_count: number;
  total_bytes: string;
  created_at: Date;
}

const SNAPSHOT_COLUMNS = `s.level_run_id, s.job_id, s.manifest_sha256, m.file_count, m.total_bytes, s.created_at`;

function toSnapshot(row: SnapshotRow): LevelRunSnapshot {
  return {
    levelRunId: row.level_run_id,
    jobId: row.job_id,
    manifestSha256: row.manifest_sha256,
    fileCount: row.file_count,
    totalBytes: Number(row.total_bytes),
    createdAt: row.created_at,
  };
}

/**
 * Records that `levelRunId` ended with `manifest`, written once: the manifest and its files are inserted unless a
 * manifest of the same digest is already there (same digest, same files), and a level run that already has a snapshot
 * keeps it. Returns the level run's snapshot as stored, so a retried activity returns what the first attempt recorded.
 */
export async function recordLevelRunSnapshot(
  db: Queryable,
  input: { levelRunId: string; jobId: string; manifest: ManifestRecord },
): Promise<LevelRunSnapshot> {
  const { manifest } = input;
  const inserted = await db.query(
    `INSERT INTO workspace_manifests (manifest_sha256, file_count, total_bytes) VALUES ($1, $2, $3)
     ON CONFLICT (manifest_sha256) DO NOTHING`,
    [manifest.sha256, manifest.entries.length, manifest.totalBytes],
  );
  if (inserted.rowCount && manifest.entries.length > 0) {
    await db.query(
      `INSERT INTO workspace_manifest_files (manifest_sha256, path, sha256, size_bytes)
       SELECT $1, f.path, f.sha256, f.size_bytes
         FROM unnest($2::text[], $3::text[], $4::bigint[]) AS f (path, sha256, size_bytes)`,
      [
        manifest.sha256,
        manifest.entries.map((e) => e.path),
        manifest.entries.map((e) => e.sha256),
        manifest.entries.map((e) => e.sizeBytes),
      ],
    );
  }
  await db.query(
    `INSERT INTO level_run_snapshots (level_run_id, job_id, manifest_sha256) VALUES ($1, $2, $3)
     ON CONFLICT (level_run_id) DO NOTHING`,
    [input.levelRunId, input.jobId, manifest.sha256],
  );
  const stored = await findLevelRunSnapshot(db, input.levelRunId);
  if (!stored) throw new Error(`the snapshot of ${input.levelRunId} was not recorded`);
  return stored;
}

export async function findLevelRunSnapshot(db: Queryable, levelRunId: string): Promise<LevelRunSnapshot | undefined> {
  const { rows } = await db.query<SnapshotRow>(
    `SELECT ${SNAPSHOT_COLUMNS} FROM level_run_snapshots s JOIN workspace_manifests m USING (manifest_sha256)
      WHERE s.level_run_id = $1`,
    [levelRunId],
  );
  return rows[0] && toSnapshot(rows[0]);
}

/** The job's latest snapshot: the manifest its working directory materialises. */
export async function latestJobSnapshot(db: Queryable, jobId: string): Promise<LevelRunSnapshot | undefined> {
  const { rows } = await db.query<SnapshotRow>(
    `SELECT ${SNAPSHOT_COLUMNS} FROM level_run_snapshots s JOIN workspace_manifests m USING (manifest_sha256)
      WHERE s.job_id = $1 ORDER BY s.seq DESC LIMIT 1`,
    [jobId],
  );
  return rows[0] && toSnapshot(rows[0]);
}

/** Every snapshot of a job, oldest first. */
export async function listJobSnapshots(db: Queryable, jobId: string): Promise<LevelRunSnapshot[]> {
  const { rows } = await db.query<SnapshotRow>(
    `SELECT ${SNAPSHOT_COLUMNS} FROM level_run_snapshots s JOIN workspace_manifests m USING (manifest_sha256)
      WHERE s.job_id = $1 ORDER BY s.seq`,
    [jobId],
  );
  return rows.map(toSnapshot);
}

/** A manifest's files, sorted by path. */
export async function manifestEntries(db: Queryable, manifestSha256: string): Promise<ManifestFileRow[]> {
  const { rows } = await db.query<{ path: string; sha256: string; size_bytes: string }>(
    `SELECT path, sha256, size_bytes FROM workspace_manifest_files WHERE manifest_sha256 = $1 ORDER BY path COLLATE "C"`,
    [manifestSha256],
  );
  return rows.map((r) => ({ path: r.path, sha256: r.sha256, sizeBytes: Number(r.size_bytes) }));
}

/** One file of a manifest, or undefined when the manifest has no such path. */
export async function manifestEntry(
  db: Queryable,
  manifestSha256: string,
  path: string,
): Promise<ManifestFileRow | undefined> {
  const { rows } = await db.query<{ path: string; sha256: string; size_bytes: string }>(
    `SELECT path, sha256, size_bytes FROM workspace_manifest_files WHERE manifest_sha256 = $1 AND path = $2`,
    [manifestSha256, path],
  );
  const row = rows[0];
  return row && { path: row.path, sha256: row.sha256, sizeBytes: Number(row.size_bytes) };
}

/** Of `blobs`, those some manifest names (as a file, or as the manifest's own blob). */
export async function referencedBlobs(db: Queryable, blobs: readonly string[]): Promise<Set<string>> {
  if (blobs.length === 0) return new Set();
  const { rows } = await db.query<{ sha256: string }>(
    `SELECT DISTINCT sha256 FROM workspace_manifest_files WHERE sha256 = ANY($1::text[])
     UNION
     SELECT manifest_sha256 FROM workspace_manifests WHERE manifest_sha256 = ANY($1::text[])`,
    [blobs],
  );
  return new Set(rows.map((r) => r.sha256));
}

/**
 * The advisory lock between snapshots and garbage collection (docs/workspace-snapshots.md): a snapshot holds it
 * shared while it confirms the blobs it reuses and records its manifest; collection holds it exclusively while it
 * re-checks and deletes. Transaction-scoped, so a dead process never leaves it held.
 */
const BLOB_GC_LOCK = 0x6b65656c_626c6f62n; // "keelblob"

export async function lockBlobsShared(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock_shared($1)', [BLOB_GC_LOCK.toString()]);
}

export async function lockBlobsExclusive(client: PoolClient): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [BLOB_GC_LOCK.toString()]);
}

/**
 * A fork's carried level run (docs/fork-and-compare.md): its own snapshot row, under the fork's level id, naming the
 * manifest the source's level run left (already stored: no new manifest, no new blob). Written once.
 */
export async function recordCarriedSnapshot(
  db: Queryable,
  input: { levelRunId: string; jobId: string; manifestSha256: string },
): Promise<void> {
  await db.query(
    `INSERT INTO level_run_snapshots (level_run_id, job_id, manifest_sha256) VALUES ($1, $2, $3)
     ON CONFLICT (level_run_id) DO NOTHING`,
    [input.levelRunId, input.jobId, input.manifestSha256],
  );
}
