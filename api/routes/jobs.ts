import fs from 'node:fs/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { resolveWorkspacePath } from '../../config/workspace-path';
import { listJobFiles } from '../../db/files';
import { findJobFork, listJobForks } from '../../db/forks';
import { listJobReservations, reservationTotals } from '../../db/budget-reservations';
import type { ApiDeps } from '../deps';
import { NotFound } from '../../refusals/refusal';
import { cancelJob } from '../../jobs/cancel';
import { pendingInput } from '../../jobs/pending-input';
import { visibleJob } from '../../jobs/visibility';
import { principalOf } from '../plugins/principal';
import { bytesResponse } from '../../http/body-schemas';
import { ErrorSchema } from './chat';
import { fileHeaders } from './job-file-headers';
import { fileAt, filesAt } from '../../jobs/workspace-at';
import { blobsOrDefault } from '../../snapshots/open-blob-store';
import { jobQueueView } from '../../db/job-slots';

const JobParams = z.object({ id: z.string().min(1).max(100) });

/** `?at=`: a level run of the job (the `level_id` its events carry, `<job>/<role>/<attempt>`). */
const LevelRunId = z
  .string()
  .min(1)
  .max(300)
  .regex(/^[^\u0000-\u001f]+$/, 'no control characters')
  .describe(
    'a level run of this job (the level_id of its level_finished event): the workspace as it stood after that level run',
  );

const FileListing = z.object({
  files: z.array(z.object({ path: z.string(), sha256: z.string(), size_bytes: z.number() })),
  /** With `at`: the snapshot the listing reads. */
  snapshot: z
    .object({
      level_run_id: z.string(),
      manifest_sha256: z.string(),
      file_count: z.number(),
      total_bytes: z.number(),
      created_at: z.string(),
    })
    .optional(),
});

const ReservationTotalsSchema = z.object({
  calls: z.number().int().describe('model calls reserved'),
  reserved_usd: z.number().describe("every call's estimate, reserved before the call"),
  settled_usd: z.number().describe('what the settled calls cost: the ledger'),
  open_usd: z.number().describe('reservations not yet settled or released'),
  released_usd: z.number().describe('reservations of calls that failed or were cancelled: charged nothing'),
});

export const JobReservationsSchema = z.object({
  job_id: z.string(),
  totals: ReservationTotalsSchema,
  calls: z
    .array(
      z.object({
        reservation_id: z.string(),
        level_id: z.string(),
        provider: z.string(),
        model: z.string(),
        state: z.enum(['reserved', 'settled', 'released']),
        reserved_usd: z.number(),
        settled_usd: z.number().nullable(),
        created_at: z.string(),
        settled_at: z.string().nullable(),
      }),
    )
    .describe('oldest first, at most 500'),
});

const WAIT_REASONS = ['org_limit', 'project_limit', 'total_limit'] as const;

/**
 * A job's place under fair scheduling (docs/scheduling.md); null for a job that claimed no slot (scheduling off). While
 * `state` is `queued` (the job's status is `queued` too), `position` is its place in its org's queue (1 is next) and
 * `reason` why it waits.
 */
export const JobQueueSchema = z.object({
  /** The org whose queue the job waits in; `position` counts that org's queued jobs. */
  org_id: z.string(),
  /** The job's project (whose own limit `project_limit` is); null: none. */
  project_slug: z.string().nullable(),
  state: z.enum(['queued', 'running', 'released']),
  position: z.number().int().nullable(),
  // Not `.nullable()`: OpenAPI 3.0 takes a null in an enum only when null is one of its values.
  reason: z
    .enum(WAIT_REASONS)
    .nullable()
    .meta({ enum: [...WAIT_REASONS, null] }),
  /** While `reason` is `project_limit`: the project's own limit of running jobs; otherwise null. */
  project_limit: z.number().int().nullable(),
  enqueued_at: z.string(),
  granted_at: z.string().nullable(),
  released_at: z.string().nullable(),
});

export const JobSchema = z.object({
  job_id: z.string(),
  workflow_id: z.string(),
  prompt_id: z.string(),
  status: z.string(),
  project_slug: z.string().nullable(),
  model_tier: z.string().nullable(),
  created_by: z.string(),
  summary: z.string().nullable(),
  error: z.unknown().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** What the job's model calls cost so far in USD, as the ledger counts it against budgets (docs/budgets.md). */
  cost_usd: z.number(),
  /** Its model calls' reservations against its budgets and what they settled at (docs/budgets.md). */
  reservations: ReservationTotalsSchema,
  /**
   * What a paused job waits for; null when it is not paused. `questions` is null when the job's workflow did not answer
   * in time (no worker is running it).
   */
  pending: z
    .object({
      questions: z
        .array(
          z.object({
            call_id: z.string(),
            role: z.string(),
            question: z.string(),
            choices: z
              .array(z.string())
              .optional()
              .describe('a budget decision (docs/budgets.md): the answers it takes, e.g. "raise by $2.00", "stop"'),
          }),
        )
        .nullable()
        .describe('open ask_user questions: answer with POST /v1/jobs/{id}/resume and the call_id'),
      approvals: z
        .array(
          z.object({
            approval_id: z.string(),
            role: z.string(),
            action: z.string(),
            reason: z.string(),
            requested_at: z.string(),
          }),
        )
        .describe('pending approvals: decide with POST /v1/approvals/{id}/decide'),
    })
    .nullable(),
  /** A fork (POST /v1/jobs/:id/fork): the job it was forked from, and where; null for a job that is no fork. */
  forked_from: z
    .object({
      job_id: z.string(),
      from_level_run_id: z.string().nullable(),
      from_sequence: z.number().nullable(),
      carried_level_ids: z.array(z.string()),
      prompt_patched: z.boolean(),
      model_tier: z.string().nullable(),
    })
    .nullable(),
  /** The jobs forked from this one, oldest first (with the compare link a page can follow). */
  forks: z.array(
    z.object({
      job_id: z.string(),
      from_level_run_id: z.string().nullable(),
      created_at: z.string(),
      compare: z.string(),
    }),
  ),
  queue: JobQueueSchema.nullable(),
});

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

export function jobRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/jobs/:id',
      { schema: { params: JobParams, response: { 200: JobSchema, 404: ErrorSchema } } },
      async (request) => {
        const job = await visibleJob(deps, principalOf(request), request.params.id);
        const policy = deps.scheduling?.policy ?? { orgSlots: null, totalSlots: null, fair: true };
        const [pending, fork, forks, reservations, queue] = await Promise.all([
          pendingInput(deps, job, request.log),
          findJobFork(deps.pool, job.job_id),
          listJobForks(deps.pool, job.job_id),
          reservationTotals(deps.pool, job.job_id),
          jobQueueView(deps.pool, job.job_id, policy),
        ]);
        return {
          job_id: job.job_id,
          workflow_id: job.workflow_id,
          prompt_id: job.prompt_id,
          status: job.status,
          project_slug: job.project_slug,
          model_tier: job.model_tier,
          created_by: job.created_by,
          summary: job.summary,
          error: job.error ?? null,
          created_at: job.created_at.toISOString(),
          updated_at: job.updated_at.toISOString(),
          started_at: iso(job.started_at),
          finished_at: iso(job.finished_at),
          cost_usd: Number(job.cost_usd),
          reservations,
          pending: pending ?? null,
          forked_from: fork
            ? {
                job_id: fork.source_job_id,
                from_level_run_id: fork.from_level_run_id,
                from_sequence: fork.from_sequence,
                carried_level_ids: fork.carried_level_ids,
                prompt_patched: fork.prompt_patched,
                model_tier: fork.model_tier,
              }
            : null,
          // Every fork of it is in the caller's org (a fork is made in its source's), so listing them reveals nothing.
          forks: forks.map((f) => ({
            job_id: f.job_id,
            from_level_run_id: f.from_level_run_id,
            created_at: f.created_at.toISOString(),
            compare: `/v1/jobs/${job.job_id}/compare/${f.job_id}`,
          })),
          queue: queue
            ? {
                org_id: queue.org_id,
                project_slug: queue.project_slug,
                state: queue.state,
                position: queue.position,
                reason: queue.reason,
                project_limit: queue.project_limit,
                enqueued_at: queue.enqueued_at.toISOString(),
                granted_at: iso(queue.granted_at),
                released_at: iso(queue.released_at),
              }
            : null,
        };
      },
    );

    app.get(
      '/v1/jobs/:id/reservations',
      { schema: { params: JobParams, response: { 200: JobReservationsSchema, 404: ErrorSchema } } },
      async (request) => {
        const job = await visibleJob(deps, principalOf(request), request.params.id);
        const [totals, calls] = await Promise.all([
          reservationTotals(deps.pool, job.job_id),
          listJobReservations(deps.pool, job.job_id, 500),
        ]);
        return {
          job_id: job.job_id,
          totals,
          calls: calls.map((c) => ({ ...c, created_at: c.created_at.toISOString(), settled_at: iso(c.settled_at) })),
        };
      },
    );

    app.post(
      '/v1/jobs/:id/cancel',
      {
        schema: {
          params: JobParams,
          response: {
            202: z.object({ job_id: z.string(), status: z.literal('cancelled') }),
            404: ErrorSchema,
            409: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const job = await visibleJob(deps, principal, request.params.id);
        await cancelJob(deps, job, request.log, principal.user_id);
        return reply.code(202).send({ job_id: job.job_id, status: 'cancelled' });
      },
    );

    app.get(
      '/v1/jobs/:id/files',
      {
        schema: {
          params: JobParams,
          querystring: z.object({ at: LevelRunId.optional() }),
          response: { 200: FileListing, 400: ErrorSchema, 404: ErrorSchema },
        },
      },
      async (request) => {
        const job = await visibleJob(deps, principalOf(request), request.params.id);
        const { at } = request.query;
        if (at !== undefined) {
          const { snapshot, files } = await filesAt(deps.pool, job.job_id, at);
          return {
            files: files.map((f) => ({ path: f.path, sha256: f.sha256, size_bytes: f.sizeBytes })),
            snapshot: {
              level_run_id: snapshot.levelRunId,
              manifest_sha256: snapshot.manifestSha256,
              file_count: snapshot.fileCount,
              total_bytes: snapshot.totalBytes,
              created_at: snapshot.createdAt.toISOString(),
            },
          };
        }
        const files = await listJobFiles(deps.pool, job.job_id);
        return { files: files.map((f) => ({ path: f.path, sha256: f.sha256, size_bytes: f.size_bytes })) };
      },
    );

    app.get(
      '/v1/jobs/:id/files/*',
      {
        schema: {
          params: JobParams.extend({ '*': z.string().min(1) }),
          querystring: z.object({
            /** `true`: `Content-Disposition: attachment`, so a browser saves the file instead of showing it. */
            download: z.enum(['true', 'false']).optional(),
            at: LevelRunId.optional(),
          }),
          response: {
            200: bytesResponse(
              "the file's bytes as the job wrote them: PNG, JPEG, GIF, WebP and AVIF under their image type, UTF-8 text as text/plain, anything else as application/octet-stream",
              '*/*',
            ),
            400: ErrorSchema,
            404: ErrorSchema,
            409: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const job = await visibleJob(deps, principalOf(request), request.params.id);
        const target = resolveWorkspacePath(deps.workspaceRoot, job.job_id, request.params['*']);
        const { at } = request.query;
        if (at !== undefined) {
          // Read from the blob store: the file as it stood after that level run, whatever the workspace holds now.
          const bytes = target.ok
            ? await fileAt({ pool: deps.pool, blobs: blobsOrDefault(deps) }, job.job_id, at, target.normalized)
            : undefined;
          if (!target.ok || !bytes) throw new NotFound(`file ${request.params['*']} at level run ${at}`);
          const served = fileHeaders(target.normalized, bytes, request.query.download === 'true');
          return reply.headers(served).send(bytes as never);
        }
        const known =
          target.ok && (await listJobFiles(deps.pool, job.job_id)).some((f) => f.path === target.normalized);
        if (!target.ok || !known) throw new NotFound(`file ${request.params['*']}`);
        const content = await fs.readFile(target.absolute).catch(() => {
          throw new NotFound(`file ${request.params['*']}`);
        });
        const served = fileHeaders(target.normalized, content, request.query.download === 'true');
        // Bytes: sent as they are, the serializer is not involved.
        return reply.headers(served).send(content as never);
      },
    );
  };
}
