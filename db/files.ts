import type { Pool } from 'pg';

export interface JobFileRow {
  path: string;
  sha256: string;
  size_bytes: number;
  created_at: Date;
  updated_at: Date;
}

/** Records a file an executor wrote; rewriting the same path updates the row instead of adding one. */
export async function recordJobFile(
  pool: Pool,
  jobId: string,
  file: { path: string; sha256: string; sizeBytes: number },
): Promise<void> {
  await pool.query(
    `INSERT INTO job_files (job_id, path, sha256, size_bytes) VALUES ($1, $2, $3, $4)
     ON CONFLICT (job_id, path) DO UPDATE SET sha256 = EXCLUDED.sha256, size_bytes = EXCLUDED.size_bytes, updated_at = now()`,
    [jobId, file.path, file.sha256, file.sizeBytes],
  );
}

export async function listJobFiles(pool: Pool, jobId: string): Promise<JobFileRow[]> {
  const { rows } = await pool.query<JobFileRow>(
    'SELECT path, sha256, size_bytes, created_at, updated_at FROM job_files WHERE job_id = $1 ORDER BY path',
    [jobId],
  );
  return rows;
}
