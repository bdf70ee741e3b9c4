/**
 * Forking a job (docs/fork-and-compare.md): a new job in the source's workflow that carries over the source's level
 * runs up to a fork point (their results, files and costs, no model call), starts from the fork point's workspace
 * restored byte for byte, and runs on from there with a changed prompt or model tier.
 */
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Pool } from 'pg';
import { findJobFork, insertJobFork } from '../db/forks';
import type { JobRow } from '../db/jobs';
import { listJobSnapshots, manifestEntries, type LevelRunSnapshot } from '../db/manifests';
import { Conflict, Invalid, Refusal } from '../refusals/refusal';
import type { BlobStore } from '../snapshots/blob-store';
import { missingBlobs } from '../snapshots/restore-workspace';
import type { ManifestEntry } from '../snapshots/manifest';
import { temporalCall } from '../temporal/temporal-call';
import type { CarriedLevel, JobInput, LevelResult } from '../workflows/definitions';
import type { Admitted } from './admit';
import type { JobsDeps } from './deps';
import { recordAndStart } from './record-and-start';
import { jobScheduling } from './scheduling';
import { allocate } from './submit';
import { snapshotAt } from './workspace-at';

/** Where a fork starts: after a level run of the source, or after the last level run finished by an event sequence. */
export type ForkPoint = { level_run_id: string } | { sequence: number };

export interface ForkRequest {
  from: ForkPoint;
  /** The fork's prompt instead of the source's (already redacted); the source's when absent. */
  promptPatch?: string;
  modelTier?: string;
  /** The fork's own ceiling in USD (checked against the deployment's maximum by the caller); the source's when absent. */
  budgetUsd?: number;
  /** Product-build pins, over the source's. */
  product?: { template?: string; design?: string; deploy?: boolean };
}

export interface ForkedJob {
  job_id: string;
  workflow_id: string;
  prompt_id: string;
  source_job_id: string;
  from_level_run_id: string | null;
  carried_level_ids: string[];
}

/** How many missing blobs a 409 names in its message (all of them are in its `missing` list). */
const NAMED_IN_MESSAGE = 5;

export async function forkJob(
  deps: JobsDeps & { blobs: BlobStore },
  principal: Admitted,
  source: JobRow,
  request: ForkRequest,
  log: FastifyBaseLogger,
): Promise<ForkedJob> {
  const sourceInput = await startedInput(deps, source.job_id);
  const point = await forkPoint(deps.pool, source, request.from);
  const carried = point ? await carriedSnapshots(deps.pool, source.job_id, point) : [];
  await refuseMissingBlobs(deps, carried);
  const carryOver = await Promise.all(carried.map((s) => carriedLevel(deps, source.job_id, s.levelRunId)));

  const promptId = await allocate(() => deps.ids.nextPromptId());
  const jobId = `job-${crypto.randomUUID()}`;
  const ids = { job_id: jobId, workflow_id: source.workflow_id, prompt_id: promptId };
  const prompt = request.promptPatch ?? sourceInput.prompt;
  const modelTier = request.modelTier ?? sourceInput.modelTier;
  const createdBy = principal.user_id || 'user';
  const fromLevelRunId = point?.levelRunId ?? null;
  const sequence = 'sequence' in request.from ? request.from.sequence : undefined;
  const orgId = source.org_id ?? principal.org_id;
  // A fork claims a slot like any submitted job (docs/scheduling.md), under this API's settings, not the ones the
  // source was started under (copied with its input): scheduling on now, it claims even when the source claimed none;
  // off, it claims none. It keeps the source's priority.
  const scheduling = jobScheduling(deps.scheduling, orgId, sourceInput.scheduling?.priority);
  const { scheduling: _sourceScheduling, ...sourceRest } = sourceInput;
  const input: JobInput = {
    ...sourceRest,
    ...(scheduling ? { scheduling } : {}),
    ids,
    prompt,
    modelTier,
    createdBy,
    ...(request.budgetUsd !== undefined ? { budgetUsd: request.budgetUsd } : {}),
    ...(request.product ? { product: { ...sourceInput.product, ...request.product } } : {}),
    fork: {
      sourceJobId: source.job_id,
      fromLevelRunId,
      manifestSha256: point?.manifestSha256 ?? null,
      ...(sequence !== undefined ? { sequence } : {}),
      carryOver,
      promptPatched: request.promptPatch !== undefined,
    },
  };
  // A test's shortened wait for the job row is the source's; a fork waits like any submission.
  delete input.recordWaitMs;
  const carriedIds = carried.map((s) => s.levelRunId);
  await recordAndStart(
    deps,
    {
      jobId,
      workflowId: source.workflow_id,
      newWorkflow: false,
      promptId,
      prompt,
      projectSlug: source.project_slug ?? undefined,
      modelTier,
      createdBy,
      orgId,
      taskQueue: deps.taskQueue,
    },
    {
      type: 'runJob',
      args: [input],
      // The Temporal UI shows where a fork came from on its page (docs/temporal-ui.md).
      memo: { forked_from: { job_id: source.job_id, level_run_id: fromLevelRunId, sequence: sequence ?? null } },
    },
    log,
    (client) =>
      insertJobFork(client, {
        job_id: jobId,
        source_job_id: source.job_id,
        from_level_run_id: fromLevelRunId,
        from_sequence: sequence ?? null,
        carried_level_ids: carriedIds,
        prompt_patched: request.promptPatch !== undefined,
        model_tier: modelTier ?? null,
      }),
  );
  return { ...ids, source_job_id: source.job_id, from_level_run_id: fromLevelRunId, carried_level_ids: carriedIds };
}

/** The source job's workflow input, as Temporal recorded it at its start: the fork runs the same job. */
async function startedInput(deps: JobsDeps, jobId: string): Promise<JobInput> {
  const history = await temporalCall(deps, 'the source job could not be read', () =>
    deps.temporal.workflow.getHandle(jobId).fetchHistory(),
  ).catch((err: unknown) => {
    if (err instanceof Refusal) throw err;
    throw new Conflict(
      'source_unavailable',
      `job ${jobId}'s run is no longer in Temporal's history: it cannot be forked`,
    );
  });
  const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  if (!payload?.data) throw new Conflict('source_unavailable', `job ${jobId} has no recorded input to fork`);
  return JSON.parse(Buffer.from(payload.data).toString('utf8')) as JobInput;
}

/**
 * The source's level run the fork starts after, with its snapshot; undefined for a fork from the start. By sequence:
 * the last level run whose `level_finished` has a sequence at or before it (none: from the start).
 */
async function forkPoint(pool: Pool, source: JobRow, from: ForkPoint): Promise<LevelRunSnapshot | undefined> {
  if ('level_run_id' in from) return snapshotAt(pool, source.job_id, from.level_run_id);
  const { rows } = await pool.query<{ last_sequence: number; level_id: string | null }>(
    `SELECT j.last_sequence,
            (SELECT e.envelope->'payload'->>'level_id' FROM job_events e
               JOIN level_run_snapshots s ON s.level_run_id = e.envelope->'payload'->>'level_id'
              WHERE e.job_id = j.job_id AND e.kind = 'level_finished' AND e.sequence <= $2
              ORDER BY e.sequence DESC LIMIT 1) AS level_id
       FROM job_runs j WHERE j.job_id = $1`,
    [source.job_id, from.sequence],
  );
  const row = rows[0];
  if (!row || from.sequence > row.last_sequence) {
    throw new Invalid(
      'sequence_out_of_range',
      `from.sequence: job ${source.job_id} has events 1..${row?.last_sequence ?? 0}; name one of them (0: from the start)`,
    );
  }
  return row.level_id ? snapshotAt(pool, source.job_id, row.level_id) : undefined;
}

/** The source's snapshots up to and including the fork point, in the order its level runs ended. */
async function carriedSnapshots(pool: Pool, jobId: string, point: LevelRunSnapshot): Promise<LevelRunSnapshot[]> {
  const all = await listJobSnapshots(pool, jobId);
  const end = all.findIndex((s) => s.levelRunId === point.levelRunId);
  return all.slice(0, end + 1);
}

/**
 * 409 `blobs_missing` before anything is created when the store lacks a blob that a carried level run's workspace
 * names (the fork point's is the one restored; the others are what `?at=` on the fork's carried level runs reads).
 */
async function refuseMissingBlobs(deps: { pool: Pool; blobs: BlobStore }, carried: LevelRunSnapshot[]): Promise<void> {
  const manifests = [...new Set(carried.map((s) => s.manifestSha256))];
  const entries = new Map<string, ManifestEntry>();
  for (const manifest of manifests) {
    for (const entry of await manifestEntries(deps.pool, manifest))
      entries.set(`${entry.path}\u0000${entry.sha256}`, entry);
  }
  const missing = await missingBlobs(deps.blobs, [...entries.values()]);
  if (missing.length === 0) return;
  const named = missing
    .slice(0, NAMED_IN_MESSAGE)
    .map((e) => `${e.path} (blob ${e.sha256})`)
    .join(', ');
  const more = missing.length > NAMED_IN_MESSAGE ? ` and ${missing.length - NAMED_IN_MESSAGE} more` : '';
  throw new Refusal(
    'conflict',
    'blobs_missing',
    `the workspace up to the fork point cannot be restored: the blob store no longer holds ${named}${more}`,
    undefined,
    { missing: missing.map((e) => ({ path: e.path, sha256: e.sha256, size_bytes: e.sizeBytes })) },
  );
}

/**
 * A source level run's durable result, as its child workflow returned it. A level run the source itself carried over
 * (the source is a fork) ran no child workflow: its result is its own source's, followed back along the forks.
 */
async function carriedLevel(deps: JobsDeps, jobId: string, levelRunId: string): Promise<CarriedLevel> {
  const { role, attempt } = splitLevelRunId(jobId, levelRunId);
  return { sourceLevelRunId: levelRunId, role, attempt, result: await levelResult(deps, jobId, levelRunId) };
}

async function levelResult(deps: JobsDeps, jobId: string, levelRunId: string): Promise<LevelResult> {
  const fork = await findJobFork(deps.pool, jobId);
  if (fork) {
    const { role, attempt } = splitLevelRunId(jobId, levelRunId);
    const original = `${fork.source_job_id}/${role}/${attempt}`;
    if (fork.carried_level_ids.includes(original)) return levelResult(deps, fork.source_job_id, original);
  }
  return temporalCall(
    deps,
    'the source level run could not be read',
    () => deps.temporal.workflow.getHandle(levelRunId).result() as Promise<LevelResult>,
  ).catch((err: unknown) => {
    if (err instanceof Refusal) throw err;
    throw new Conflict(
      'source_unavailable',
      `level run ${levelRunId}'s result is no longer in Temporal's history: it cannot be carried over`,
    );
  });
}

/** `<job>/<role>/<attempt>` → its role and attempt. */
function splitLevelRunId(jobId: string, levelRunId: string): { role: string; attempt: number } {
  const rest = levelRunId.slice(jobId.length + 1);
  const slash = rest.lastIndexOf('/');
  return { role: rest.slice(0, slash), attempt: Number(rest.slice(slash + 1)) };
}
