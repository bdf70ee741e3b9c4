import type { Pool } from 'pg';

/** One `run_command` call's row (db/migrations/0031_command_runs.sql). */
export interface CommandRun {
  runKey: string;
  command: string;
  startedAt: Date;
  /** Null while the command runs, or when the attempt that started it died before it could record the end. */
  finishedAt: Date | null;
  exitCode: number | null;
  killed: 'timeout' | 'output_cap' | 'aborted' | null;
  outputTail: string | null;
  outputBytes: number | null;
  durationMs: number | null;
  network: string | null;
}

export interface CommandEnd {
  exitCode: number | null;
  killed: 'timeout' | 'output_cap' | 'aborted' | null;
  outputTail: string;
  outputBytes: number;
  durationMs: number;
  network: string;
}

/**
 * Claims a run before the command starts: true when this call wrote the row (run the command), false when a row was
 * there already (an earlier attempt started it; read it with `findCommandRun`).
 */
export async function claimCommandRun(
  pool: Pool,
  run: { runKey: string; jobId: string; levelId: string; command: string },
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `INSERT INTO command_runs (run_key, job_id, level_id, command) VALUES ($1, $2, $3, $4)
     ON CONFLICT (run_key) DO NOTHING`,
    [run.runKey, run.jobId, run.levelId, run.command],
  );
  return rowCount === 1;
}

export async function finishCommandRun(pool: Pool, runKey: string, end: CommandEnd): Promise<void> {
  await pool.query(
    `UPDATE command_runs SET finished_at = now(), exit_code = $2, killed = $3, output_tail = $4, output_bytes = $5,
       duration_ms = $6, network = $7
     WHERE run_key = $1`,
    [runKey, end.exitCode, end.killed, end.outputTail, end.outputBytes, end.durationMs, end.network],
  );
}

export async function findCommandRun(pool: Pool, runKey: string): Promise<CommandRun | undefined> {
  const { rows } = await pool.query<{
    run_key: string;
    command: string;
    started_at: Date;
    finished_at: Date | null;
    exit_code: number | null;
    killed: 'timeout' | 'output_cap' | 'aborted' | null;
    output_tail: string | null;
    output_bytes: string | null;
    duration_ms: number | null;
    network: string | null;
  }>(`SELECT * FROM command_runs WHERE run_key = $1`, [runKey]);
  const row = rows[0];
  if (!row) return undefined;
  return {
    runKey: row.run_key,
    command: row.command,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    exitCode: row.exit_code,
    killed: row.killed,
    outputTail: row.output_tail,
    outputBytes: row.output_bytes === null ? null : Number(row.output_bytes),
    durationMs: row.duration_ms,
    network: row.network,
  };
}
