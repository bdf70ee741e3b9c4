// Workspace snapshots (docs/workspace-snapshots.md), on PostgreSQL and a blob folder:
// 1. overhead: a job with a 50-file workspace rewrites one file per level run; each level ends with a snapshot. The
//    snapshot's time against the write's (today's write_file activity: receipt, atomic write, job_files row).
// 2. dedup: 100 jobs, each from the same 50-file workspace, each rewriting one file: the blob store's bytes against
//    what 100 copies of every snapshot would hold.
// Needs PostgreSQL only (BENCH_POSTGRES_DSN; a throwaway schema, dropped at the end).
// Run: npm run build && node dist/bench/snapshots.js [--files=50] [--levels=20] [--jobs=100] [--json]
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Pool } from 'pg';
import { workspaceActivities } from '../activities/workspace';
import { FsBlobStore } from '../snapshots/fs-blob-store';
import { snapshotWorkspace } from '../snapshots/take-snapshot';
import { param, percentile, printJson } from './measure';
import { runBench, Teardown } from './run-bench';
import { throwawaySchema } from './throwaway-schema';

const POSTGRES_DSN = process.env.BENCH_POSTGRES_DSN ?? 'postgres://postgres@127.0.0.1:5432/test';
const FILES = param('files', 50);
const LEVELS = param('levels', 20);
const JOBS = param('jobs', 100);

/** A file of the shared starting workspace: ~2 KiB of text that differs per file. */
const baseContent = (i: number) => `# File ${i}\n\n${`line ${i} of a workspace file\n`.repeat(80)}`;

async function addJob(pool: Pool, jobId: string): Promise<void> {
  await pool.query(
    `INSERT INTO job_runs (job_id, workflow_id, prompt_id, status, created_by, org_id, task_queue)
     VALUES ($1, 'wf-bench', 'pt-bench', 'running', 'bench', 'org-bench', 'bench')`,
    [jobId],
  );
}

function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = process.hrtime.bigint();
  return fn().then((value) => [value, Number(process.hrtime.bigint() - started) / 1e6]);
}

const median = (samples: number[]) =>
  percentile(
    [...samples].sort((a, b) => a - b),
    0.5,
  );

runBench(async () => {
  const teardown = new Teardown();
  try {
    const pool = await throwawaySchema(teardown, POSTGRES_DSN, `bench_snapshots_${process.pid}`, 4);
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'keel-bench-snapshots-'));
    teardown.push('workspaces', () => fs.rm(root, { recursive: true, force: true }));
    const workspaceRoot = path.join(root, 'workspaces');
    const blobs = new FsBlobStore(path.join(root, 'blobs'));
    const deps = { pool, workspaceRoot, blobs };
    const { runWorkspaceTool } = workspaceActivities({ pool, workspaceRoot });
    await pool.query(
      `INSERT INTO workflows (workflow_id, created_by, org_id) VALUES ('wf-bench', 'bench', 'org-bench')`,
    );
    await pool.query(
      `INSERT INTO prompt_threads (prompt_id, workflow_id, prompt, created_by) VALUES ('pt-bench', 'wf-bench', 'b', 'bench')`,
    );
    const write = (jobId: string, file: string, content: string) =>
      runWorkspaceTool({
        jobId,
        call: {
          id: crypto.randomUUID(),
          type: 'function',
          function: { name: 'write_file', arguments: JSON.stringify({ path: file, content }) },
        },
      });

    // 1. Overhead per level run.
    const job = 'job-bench-overhead';
    await addJob(pool, job);
    for (let i = 0; i < FILES; i += 1) await write(job, `src/file-${i}.md`, baseContent(i));
    const [, firstSnapshotMs] = await timed(() => snapshotWorkspace(deps, { jobId: job, levelRunId: `${job}/L0/1` }));
    const writes: number[] = [];
    const snapshots: number[] = [];
    for (let level = 1; level <= LEVELS; level += 1) {
      const [, writeMs] = await timed(() =>
        write(job, `src/file-${level % FILES}.md`, `rewritten at level ${level}\n`),
      );
      const [, snapshotMs] = await timed(() =>
        snapshotWorkspace(deps, { jobId: job, levelRunId: `${job}/L4.executor/${level}` }),
      );
      writes.push(writeMs);
      snapshots.push(snapshotMs);
    }

    // 2. Dedup across jobs.
    const before = { ...(await storedBytes(blobs)), manifestBytes: 0 };
    {
      const known = new Set(
        (await pool.query<{ sha: string }>('SELECT manifest_sha256 AS sha FROM workspace_manifests')).rows.map(
          (r) => r.sha,
        ),
      );
      for await (const blob of blobs.list()) if (known.has(blob.sha256)) before.manifestBytes += blob.sizeBytes;
    }
    for (let j = 0; j < JOBS; j += 1) {
      const jobId = `job-bench-dedup-${j}`;
      await addJob(pool, jobId);
      for (let i = 0; i < FILES; i += 1) await write(jobId, `src/file-${i}.md`, baseContent(i));
      await write(jobId, `src/file-${j % FILES}.md`, `job ${j} changed this file\n`);
      await snapshotWorkspace(deps, { jobId, levelRunId: `${jobId}/L4.executor/1` });
    }
    const after = await storedBytes(blobs);
    const { rows } = await pool.query<{ bytes: string }>(
      `SELECT coalesce(sum(m.total_bytes), 0) AS bytes FROM level_run_snapshots s
         JOIN workspace_manifests m USING (manifest_sha256) WHERE s.job_id LIKE 'job-bench-dedup-%'`,
    );
    const copiedBytes = Number(rows[0]!.bytes);
    const dedupBytes = after.bytes - before.bytes;
    // Of what the store added, the manifests' own blobs (their canonical bytes, one per distinct workspace).
    const manifests = new Set(
      (await pool.query<{ sha: string }>('SELECT manifest_sha256 AS sha FROM workspace_manifests')).rows.map(
        (r) => r.sha,
      ),
    );
    let manifestBytes = 0;
    for await (const blob of blobs.list()) if (manifests.has(blob.sha256)) manifestBytes += blob.sizeBytes;
    manifestBytes -= before.manifestBytes;

    console.log(`workspace: ${FILES} files; ${LEVELS} level runs each rewriting one file`);
    console.log('step | median ms | p90 ms');
    const p90 = (samples: number[]) =>
      percentile(
        [...samples].sort((a, b) => a - b),
        0.9,
      );
    console.log(`write_file (today's write) | ${median(writes).toFixed(2)} | ${p90(writes).toFixed(2)}`);
    console.log(`snapshot, one file changed | ${median(snapshots).toFixed(2)} | ${p90(snapshots).toFixed(2)}`);
    console.log(`first snapshot, ${FILES} new files | ${firstSnapshotMs.toFixed(2)} | -`);
    console.log(`\n${JOBS} jobs x ${FILES} files, one rewritten per job`);
    console.log(`bytes if every snapshot were copied | ${copiedBytes}`);
    console.log(`blob store bytes added (blobs: ${after.count - before.count}) | ${dedupBytes}`);
    console.log(`  of which manifests' own blobs | ${manifestBytes}`);
    console.log(`dedup ratio | ${(copiedBytes / Math.max(1, dedupBytes)).toFixed(1)}x`);
    console.log(
      `dedup ratio, file contents only | ${(copiedBytes / Math.max(1, dedupBytes - manifestBytes)).toFixed(1)}x`,
    );
    printJson('snapshots', {
      files: FILES,
      levels: LEVELS,
      jobs: JOBS,
      write_ms_p50: median(writes),
      snapshot_ms_p50: median(snapshots),
      first_snapshot_ms: firstSnapshotMs,
      copied_bytes: copiedBytes,
      stored_bytes: dedupBytes,
      manifest_bytes: manifestBytes,
      dedup_ratio: copiedBytes / Math.max(1, dedupBytes),
    });
  } finally {
    await teardown.run();
  }
});

async function storedBytes(blobs: FsBlobStore): Promise<{ bytes: number; count: number }> {
  let bytes = 0;
  let count = 0;
  for await (const blob of blobs.list()) {
    bytes += blob.sizeBytes;
    count += 1;
  }
  return { bytes, count };
}
