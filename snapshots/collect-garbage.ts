import type { Pool } from 'pg';
import { lockBlobsExclusive, referencedBlobs } from '../db/manifests';
import { withTransaction } from '../db/transaction';
import type { BlobStore } from './blob-store';

export interface GarbageReport {
  /** Blobs the store held when the run listed it. */
  scanned: number;
  /** Deleted: no manifest named them and they were older than the retention. */
  deleted: number;
  deletedBytes: number;
  /** Kept because a manifest names them. */
  referenced: number;
  /** Kept because they are younger than the retention (a snapshot may be about to name them). */
  young: number;
  /** Temporaries of writes whose writer died before renaming them (a folder store), older than the retention. */
  temporaries: number;
}

const BATCH = 200;

/**
 * Deletes the blobs no manifest names that were stored more than `retentionHours` ago, and keeps every blob a
 * manifest still names; then the store's temporaries of writers that died mid-write, once as old. Candidates are
 * re-checked and deleted in batches, each under the exclusive side of the blob lock, so a snapshot that reuses a
 * candidate either records its manifest first (and the blob is kept) or finds the blob gone and stores it again
 * (take-snapshot.ts).
 */
export async function collectUnreferencedBlobs(
  deps: { pool: Pool; blobs: BlobStore },
  options: { retentionHours: number; now?: Date },
  onProgress: (report: GarbageReport) => void = () => undefined,
): Promise<GarbageReport> {
  const cutoff = (options.now ?? new Date()).getTime() - options.retentionHours * 3_600_000;
  const report: GarbageReport = { scanned: 0, deleted: 0, deletedBytes: 0, referenced: 0, young: 0, temporaries: 0 };
  let batch: Array<{ sha256: string; sizeBytes: number }> = [];

  const sweep = async () => {
    const candidates = batch;
    batch = [];
    await withTransaction(deps.pool, async (client) => {
      await lockBlobsExclusive(client);
      const named = await referencedBlobs(
        client,
        candidates.map((c) => c.sha256),
      );
      for (const candidate of candidates) {
        if (named.has(candidate.sha256)) {
          report.referenced += 1;
          continue;
        }
        await deps.blobs.delete(candidate.sha256);
        report.deleted += 1;
        report.deletedBytes += candidate.sizeBytes;
      }
    });
    onProgress(report);
  };

  for await (const blob of deps.blobs.list()) {
    report.scanned += 1;
    if (blob.storedAt.getTime() > cutoff) {
      report.young += 1;
      continue;
    }
    batch.push(blob);
    if (batch.length >= BATCH) await sweep();
  }
  if (batch.length > 0) await sweep();
  // A worker killed mid-put (during a snapshot) leaves a temporary beside the blob; past the retention it is litter.
  report.temporaries = (await deps.blobs.deleteStaleTemporaries?.(new Date(cutoff))) ?? 0;
  onProgress(report);
  return report;
}
