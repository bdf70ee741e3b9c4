/**
 * Comparing two jobs (docs/fork-and-compare.md): their workspaces file by file (from their snapshots), their level
 * runs' costs and durations side by side, and which level runs a fork carried over. Typically a fork and its source,
 * but any two jobs the caller can see compare the same way.
 */
import { createTwoFilesPatch } from 'diff';
import type { Pool } from 'pg';
import { findJobFork, type JobForkRow } from '../db/forks';
import type { JobRow } from '../db/jobs';
import { latestJobSnapshot, manifestEntries, type LevelRunSnapshot } from '../db/manifests';
import { listEventsOfKinds } from '../events/store';
import { Conflict } from '../refusals/refusal';
import type { BlobStore } from '../snapshots/blob-store';
import { diffManifests, type ManifestEntry } from '../snapshots/manifest';
import { snapshotAt } from './workspace-at';

/** A text file larger than this (either side) is compared by size and hash only: its diff would not be read. */
export const MAX_DIFF_BYTES = 512 * 1024;

export interface FileSide {
  sha256: string;
  size_bytes: number;
}

export interface FileDifference {
  path: string;
  /** From `a` to `b`: `added` is in b only, `removed` in a only. */
  change: 'added' | 'removed' | 'changed';
  a: FileSide | null;
  b: FileSide | null;
  /** b's size minus a's (a missing side counts 0). */
  size_diff_bytes: number;
  /** Either side is not UTF-8 text. */
  binary: boolean;
  /** `changed` text files: a unified diff from a to b (`a/<path>` → `b/<path>`). */
  diff?: string;
  /** Why a changed file has no `diff`: `binary`, or `too_large` (over MAX_DIFF_BYTES). */
  diff_omitted?: 'binary' | 'too_large';
}

export interface LevelSide {
  level_id: string;
  cost_usd: number;
  duration_ms: number;
  verdict: string | null;
  model: string | null;
  /** Carried over from the job's source (a fork's level run that made no model call). */
  carried_over: boolean;
  source_level_id: string | null;
}

export interface LevelDifference {
  role: string;
  attempt: number;
  a: LevelSide | null;
  b: LevelSide | null;
  /** b's minus a's; null when either job has no such level run. */
  cost_diff_usd: number | null;
  duration_diff_ms: number | null;
}

export interface JobSide {
  job_id: string;
  status: string;
  /** The level run whose workspace is compared (the job's latest snapshot by default); null: no snapshot, no files. */
  level_run_id: string | null;
  manifest_sha256: string | null;
  /** Summed over the job's finished level runs, carried ones included (what the result cost to produce). */
  levels_cost_usd: number;
  levels_duration_ms: number;
  /** What this job's own model calls cost (the ledger's count, as GET /v1/jobs/:id reports it). */
  billed_cost_usd: number;
  forked_from: { job_id: string; level_run_id: string | null } | null;
  carried_level_ids: string[];
}

export interface JobComparison {
  a: JobSide;
  b: JobSide;
  /** How the two are related through forks. */
  relation: 'b_forked_from_a' | 'a_forked_from_b' | 'same_source' | 'same_job' | 'unrelated';
  identical_workspaces: boolean;
  files: FileDifference[];
  unchanged_files: number;
  levels: LevelDifference[];
  cost_diff_usd: number;
  duration_diff_ms: number;
}

export async function compareJobs(
  deps: { pool: Pool; blobs: BlobStore },
  a: JobRow,
  b: JobRow,
  at: { a?: string; b?: string } = {},
): Promise<JobComparison> {
  const [snapA, snapB] = await Promise.all([snapshotOf(deps.pool, a, at.a), snapshotOf(deps.pool, b, at.b)]);
  const [entriesA, entriesB] = await Promise.all([entriesOf(deps.pool, snapA), entriesOf(deps.pool, snapB)]);
  const changes = diffManifests(entriesA, entriesB);
  const files: FileDifference[] = [];
  for (const change of changes) files.push(await fileDifference(deps.blobs, change));
  const [levelsA, levelsB, forkA, forkB] = await Promise.all([
    levelSides(deps.pool, a.job_id),
    levelSides(deps.pool, b.job_id),
    findJobFork(deps.pool, a.job_id),
    findJobFork(deps.pool, b.job_id),
  ]);
  const sideA = jobSide(a, snapA, levelsA, forkA);
  const sideB = jobSide(b, snapB, levelsB, forkB);
  return {
    a: sideA,
    b: sideB,
    relation: relationOf(a.job_id, b.job_id, forkA, forkB),
    identical_workspaces: (snapA?.manifestSha256 ?? null) === (snapB?.manifestSha256 ?? null) || changes.length === 0,
    files,
    unchanged_files: entriesB.length - files.filter((f) => f.change !== 'removed').length,
    levels: levelDifferences(levelsA, levelsB),
    cost_diff_usd: round(sideB.levels_cost_usd - sideA.levels_cost_usd),
    duration_diff_ms: sideB.levels_duration_ms - sideA.levels_duration_ms,
  };
}

async function snapshotOf(pool: Pool, job: JobRow, at: string | undefined): Promise<LevelRunSnapshot | undefined> {
  return at !== undefined ? snapshotAt(pool, job.job_id, at) : latestJobSnapshot(pool, job.job_id);
}

async function entriesOf(pool: Pool, snapshot: LevelRunSnapshot | undefined): Promise<ManifestEntry[]> {
  return snapshot ? manifestEntries(pool, snapshot.manifestSha256) : [];
}

const side = (entry: ManifestEntry | undefined): FileSide | null =>
  entry ? { sha256: entry.sha256, size_bytes: entry.sizeBytes } : null;

async function fileDifference(
  blobs: BlobStore,
  change: ReturnType<typeof diffManifests>[number],
): Promise<FileDifference> {
  const { before, after, path } = change;
  const base = {
    path,
    change: change.change,
    a: side(before),
    b: side(after),
    size_diff_bytes: (after?.sizeBytes ?? 0) - (before?.sizeBytes ?? 0),
  };
  const tooLarge = [before, after].some((e) => e !== undefined && e.sizeBytes > MAX_DIFF_BYTES);
  if (tooLarge) {
    // Not read: whether it is text is not known either; a diff would not be read by anyone.
    return { ...base, binary: false, ...(change.change === 'changed' ? { diff_omitted: 'too_large' as const } : {}) };
  }
  const [oldBytes, newBytes] = await Promise.all([readBlob(blobs, path, before), readBlob(blobs, path, after)]);
  const oldText = oldBytes && asText(oldBytes);
  const newText = newBytes && asText(newBytes);
  const binary = (oldBytes !== undefined && oldText === undefined) || (newBytes !== undefined && newText === undefined);
  if (change.change !== 'changed') return { ...base, binary };
  if (binary) return { ...base, binary, diff_omitted: 'binary' };
  return { ...base, binary, diff: createTwoFilesPatch(`a/${path}`, `b/${path}`, oldText!, newText!) };
}

async function readBlob(blobs: BlobStore, path: string, entry: ManifestEntry | undefined): Promise<Buffer | undefined> {
  if (!entry) return undefined;
  const bytes = await blobs.get(entry.sha256);
  if (!bytes) {
    throw new Conflict('blob_missing', `the content of ${path} (blob ${entry.sha256}) is missing from the blob store`);
  }
  return bytes;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when they are UTF-8 without NUL bytes (what a unified diff can show), else undefined. */
function asText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Each finished level run of a job, in the order they finished, from its `level_finished` events. */
async function levelSides(pool: Pool, jobId: string): Promise<Array<LevelSide & { role: string; attempt: number }>> {
  const events = await listEventsOfKinds(pool, jobId, ['level_finished']);
  return events.map((event) => {
    const p = event.payload;
    const levelId = String(p.level_id);
    const rest = levelId.slice(jobId.length + 1);
    const slash = rest.lastIndexOf('/');
    return {
      role: rest.slice(0, slash),
      attempt: Number(p.attempt ?? rest.slice(slash + 1)),
      level_id: levelId,
      cost_usd: Number(p.cost_usd ?? 0),
      duration_ms: Number(p.duration_ms ?? 0),
      verdict: typeof p.verdict === 'string' ? p.verdict : null,
      model: typeof p.model === 'string' ? p.model : null,
      carried_over: p.carried_over === true,
      source_level_id: typeof p.source_level_id === 'string' ? p.source_level_id : null,
    };
  });
}

function levelDifferences(
  a: Array<LevelSide & { role: string; attempt: number }>,
  b: Array<LevelSide & { role: string; attempt: number }>,
): LevelDifference[] {
  const key = (l: { role: string; attempt: number }) => `${l.role}/${l.attempt}`;
  const inB = new Map(b.map((l) => [key(l), l]));
  const out: LevelDifference[] = [];
  const strip = ({ role: _role, attempt: _attempt, ...rest }: LevelSide & { role: string; attempt: number }) => rest;
  for (const left of a) {
    const right = inB.get(key(left));
    inB.delete(key(left));
    out.push({
      role: left.role,
      attempt: left.attempt,
      a: strip(left),
      b: right ? strip(right) : null,
      cost_diff_usd: right ? round(right.cost_usd - left.cost_usd) : null,
      duration_diff_ms: right ? right.duration_ms - left.duration_ms : null,
    });
  }
  for (const right of inB.values()) {
    out.push({
      role: right.role,
      attempt: right.attempt,
      a: null,
      b: strip(right),
      cost_diff_usd: null,
      duration_diff_ms: null,
    });
  }
  return out;
}

function jobSide(
  job: JobRow,
  snapshot: LevelRunSnapshot | undefined,
  levels: LevelSide[],
  fork: JobForkRow | undefined,
): JobSide {
  return {
    job_id: job.job_id,
    status: job.status,
    level_run_id: snapshot?.levelRunId ?? null,
    manifest_sha256: snapshot?.manifestSha256 ?? null,
    levels_cost_usd: round(levels.reduce((sum, l) => sum + l.cost_usd, 0)),
    levels_duration_ms: levels.reduce((sum, l) => sum + l.duration_ms, 0),
    billed_cost_usd: Number(job.cost_usd),
    forked_from: fork ? { job_id: fork.source_job_id, level_run_id: fork.from_level_run_id } : null,
    carried_level_ids: levels.filter((l) => l.carried_over).map((l) => l.level_id),
  };
}

function relationOf(
  a: string,
  b: string,
  forkA: JobForkRow | undefined,
  forkB: JobForkRow | undefined,
): JobComparison['relation'] {
  if (a === b) return 'same_job';
  if (forkB?.source_job_id === a) return 'b_forked_from_a';
  if (forkA?.source_job_id === b) return 'a_forked_from_b';
  if (forkA && forkB && forkA.source_job_id === forkB.source_job_id) return 'same_source';
  return 'unrelated';
}

/** Costs are summed floats: rounded to a millionth of a dollar so 0.1 + 0.2 compares as 0.3. */
function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
