import { Context } from '@temporalio/activity';
import type { Pool } from 'pg';
import type { BlobStore } from '../snapshots/blob-store';
import { collectUnreferencedBlobs, type GarbageReport } from '../snapshots/collect-garbage';
import { blobsOrDefault } from '../snapshots/open-blob-store';
import { snapshotWorkspace } from '../snapshots/take-snapshot';

/** What a level's durable result records of its snapshot: the manifest (by digest) and its totals. */
export interface WorkspaceSnapshotRef {
  manifestSha256: string;
  files: number;
  bytes: number;
}

/** The activities of workspace snapshots (docs/workspace-snapshots.md). */
export function snapshotActivities(deps: { pool: Pool; workspaceRoot: string; blobs?: BlobStore }) {
  const blobs = blobsOrDefault(deps);
  return {
    /**
     * Snapshots the job's workspace as the manifest `levelRunId` ended with (snapshots/take-snapshot.ts): idempotent,
     * written once, safe to retry after a worker died half-way. Heartbeats per file stored.
     */
    async snapshotWorkspace(input: { jobId: string; levelRunId: string }): Promise<WorkspaceSnapshotRef> {
      const context = Context.current();
      const snapshot = await snapshotWorkspace(
        { pool: deps.pool, workspaceRoot: deps.workspaceRoot, blobs },
        input,
        (n) => context.heartbeat(n),
      );
      return { manifestSha256: snapshot.manifestSha256, files: snapshot.fileCount, bytes: snapshot.totalBytes };
    },

    /** One garbage collection of the blob store: unreferenced blobs past the retention go (snapshots/collect-garbage.ts). */
    async collectUnreferencedBlobs(input: { retentionHours: number }): Promise<GarbageReport> {
      const context = Context.current();
      return collectUnreferencedBlobs({ pool: deps.pool, blobs }, input, (report) => context.heartbeat(report));
    },
  };
}
