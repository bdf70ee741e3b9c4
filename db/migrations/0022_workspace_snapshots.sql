-- Workspace snapshots (docs/workspace-snapshots.md). File contents live in the blob store, named by SHA-256; these
-- tables say which blobs made up a job's workspace at the end of each level run.

-- A manifest: one workspace state, named by the SHA-256 of its canonical bytes (snapshots/manifest.ts), so level runs
-- (and, later, forks) that left the same files share one row. Written once, never changed.
CREATE TABLE workspace_manifests (
  manifest_sha256 text PRIMARY KEY CHECK (manifest_sha256 ~ '^[0-9a-f]{64}$'),
  file_count      integer NOT NULL,
  total_bytes     bigint NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- The files of a manifest: path → blob. The sha256 index answers garbage collection's "does any manifest name it?".
CREATE TABLE workspace_manifest_files (
  manifest_sha256 text NOT NULL REFERENCES workspace_manifests (manifest_sha256),
  path            text NOT NULL,
  sha256          text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size_bytes      bigint NOT NULL,
  PRIMARY KEY (manifest_sha256, path)
);
CREATE INDEX workspace_manifest_files_blob_idx ON workspace_manifest_files (sha256);

-- Which manifest each level run ended with. `level_run_id` is the level's workflow id (`<job>/<role>/<attempt>`), the
-- `level_id` its events carry. No foreign key to job_runs: a level's job row is the job's business, and a snapshot
-- must never fail a level for it. `seq` orders a job's snapshots (the latest is its working directory).
CREATE TABLE level_run_snapshots (
  level_run_id    text PRIMARY KEY,
  job_id          text NOT NULL,
  manifest_sha256 text NOT NULL REFERENCES workspace_manifests (manifest_sha256),
  seq             bigint GENERATED ALWAYS AS IDENTITY,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX level_run_snapshots_job_idx ON level_run_snapshots (job_id, seq);
