import { Context } from '@temporalio/activity';
import type { Pool } from 'pg';
import type { BlobStore } from '../snapshots/blob-store';
import { collectUnreferencedBlobs, type GarbageReport } from '../snapshots/collect-garbage';
import { blobsOrDefault } from '../snapshots/open-blob-store';
import { snapshotWorkspace } from '../snapshots/take-snapshot';
import { recordCarriedSnapshot } from '../db/manifests';
import { restoreWorkspace } from '../snapshots/restore-workspace';

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

    /**
     * A fork's start: the fork point's manifest written into the fork's working directory byte for byte, each file
     * recorded as the fork's (snapshots/restore-workspace.ts). Idempotent; heartbeats per file.
     */
    async restoreForkWorkspace(input: {
      jobId: string;
      manifestSha256: string;
    }): Promise<{ files: number; bytes: number }> {
      const context = Context.current();
      return restoreWorkspace({ pool: deps.pool, workspaceRoot: deps.workspaceRoot, blobs }, input, (n) =>
        context.heartbeat(n),
      );
    },

    /** A fork's carried level run gets a snapshot row of its own naming the source's manifest (written once). */
    async recordCarriedSnapshot(input: { jobId: string; levelRunId: string; manifestSha256: string }): Promise<void> {
      await recordCarriedSnapshot(deps.pool, input);
    },

    /** One garbage collection of the blob store: unreferenced blobs past the retention go (snapshots/collect-garbage.ts). */
    async collectUnreferencedBlobs(input: { retentionHours: number }): Promise<GarbageReport> {
      const context = Context.current();
      return collectUnreferencedBlobs({ pool: deps.pool, blobs }, input, (report) => context.heartbeat(report));
    },
  };
}
