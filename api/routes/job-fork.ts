import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ApiDeps } from '../deps';
import { admitRequest } from '../admit-request';
import { principalOf } from '../plugins/principal';
import { compareJobs } from '../../jobs/compare';
import { forkJob } from '../../jobs/fork';
import { redactPrompt } from '../../jobs/redact';
import { checkJobBudget, submissionProject } from '../../jobs/submit';
import { visibleJob } from '../../jobs/visibility';
import { blobsOrDefault } from '../../snapshots/open-blob-store';
import { ErrorSchema, MAX_PROMPT_CHARS, OverBudgetErrorSchema } from './chat';

/** A level run of a job: the `level_id` its events carry (`<job>/<role>/<attempt>`). */
const LevelRunId = z
  .string()
  .min(1)
  .max(300)
  .regex(/^[^\u0000-\u001f]+$/, 'no control characters');

const ModelTier = z.enum(['free', 'cheap', 'frontier']);
const CATALOG_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const ForkRequestSchema = z.strictObject({
  from: z
    .union([
      z.strictObject({
        level_run_id: LevelRunId.describe(
          'fork after this level run of the job (the level_id of its level_finished event); it and every level run ' +
            'before it are carried over',
        ),
      }),
      z.strictObject({
        sequence: z
          .number()
          .int()
          .min(0)
          .describe(
            'fork after the last level run finished at or before this event sequence of the job (0: from the start)',
          ),
      }),
    ])
    .describe('the fork point: { level_run_id } or { sequence }'),
  prompt_patch: z
    .string()
    .trim()
    .min(1, 'prompt_patch must not be empty')
    .max(MAX_PROMPT_CHARS)
    .optional()
    .describe("the fork's prompt, replacing the source's for the level runs after the fork point"),
  model_tier: ModelTier.optional().describe("the model tier of the fork's level runs after the fork point"),
  budget_usd: z
    .number()
    .positive()
    .max(1_000_000)
    .optional()
    .describe(
      "the fork's own cost ceiling in USD, instead of its source's (as POST /v1/chat's budget_usd: at most the " +
        "deployment's maximum)",
    ),
  metadata: z
    .looseObject({
      model_tier: ModelTier.optional(),
      template: z.string().regex(CATALOG_ID, 'a template id such as static-page').optional(),
      design: z.string().regex(CATALOG_ID, 'a design id such as warm').optional(),
      deploy: z.boolean().optional(),
    })
    .optional()
    .describe("as POST /v1/chat's metadata; model_tier at the top level wins over metadata.model_tier"),
});

const ForkAcceptedSchema = z.object({
  job_id: z.string().describe('the fork: a new job in the source job’s workflow'),
  workflow_id: z.string(),
  prompt_id: z.string(),
  status: z.literal('queued'),
  source_job_id: z.string(),
  from_level_run_id: z.string().nullable().describe('the fork point; null for a fork from the start'),
  carried_level_ids: z.array(z.string()).describe("the source's level runs carried over, in the order they ran"),
  links: z.object({ job: z.string(), stream: z.string(), compare: z.string() }),
});

/** 409 `blobs_missing` names every missing blob with its path, besides the message. */
const ForkConflictSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    missing: z.array(z.object({ path: z.string(), sha256: z.string(), size_bytes: z.number() })).optional(),
  }),
});

const FileSideSchema = z.object({ sha256: z.string(), size_bytes: z.number() }).nullable();
const LevelSideSchema = z
  .object({
    level_id: z.string(),
    cost_usd: z.number(),
    duration_ms: z.number(),
    verdict: z.string().nullable(),
    model: z.string().nullable(),
    carried_over: z.boolean(),
    source_level_id: z.string().nullable(),
  })
  .nullable();
const JobSideSchema = z.object({
  job_id: z.string(),
  status: z.string(),
  level_run_id: z.string().nullable(),
  manifest_sha256: z.string().nullable(),
  levels_cost_usd: z.number(),
  levels_duration_ms: z.number(),
  billed_cost_usd: z.number(),
  forked_from: z.object({ job_id: z.string(), level_run_id: z.string().nullable() }).nullable(),
  carried_level_ids: z.array(z.string()),
});

export const ComparisonSchema = z.object({
  a: JobSideSchema,
  b: JobSideSchema,
  relation: z.enum(['b_forked_from_a', 'a_forked_from_b', 'same_source', 'same_job', 'unrelated']),
  identical_workspaces: z.boolean(),
  files: z
    .array(
      z.object({
        path: z.string(),
        change: z.enum(['added', 'removed', 'changed']),
        a: FileSideSchema,
        b: FileSideSchema,
        size_diff_bytes: z.number(),
        binary: z.boolean(),
        diff: z.string().optional().describe('changed text files: a unified diff from a to b'),
        diff_omitted: z.enum(['binary', 'too_large']).optional(),
      }),
    )
    .describe("the files that differ between a's workspace and b's, by path; `added` is in b only"),
  unchanged_files: z.number(),
  levels: z.array(
    z.object({
      role: z.string(),
      attempt: z.number(),
      a: LevelSideSchema,
      b: LevelSideSchema,
      cost_diff_usd: z.number().nullable(),
      duration_diff_ms: z.number().nullable(),
    }),
  ),
  cost_diff_usd: z.number(),
  duration_diff_ms: z.number(),
});

const JobParams = z.object({ id: z.string().min(1).max(100) });

/** POST /v1/jobs/:id/fork and GET /v1/jobs/:a/compare/:b (docs/fork-and-compare.md). */
export function jobForkRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/v1/jobs/:id/fork',
      {
        schema: {
          params: JobParams,
          body: ForkRequestSchema,
          response: {
            202: ForkAcceptedSchema,
            400: ErrorSchema,
            402: OverBudgetErrorSchema,
            404: ErrorSchema,
            409: ForkConflictSchema,
            429: ErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const body = request.body;
        checkJobBudget(deps, body.budget_usd);
        const source = await visibleJob(deps, principal, request.params.id);
        const project = await submissionProject(deps, principal, { workflowId: source.workflow_id });
        const { template, design, deploy } = body.metadata ?? {};
        const pinned = template !== undefined || design !== undefined || deploy !== undefined;
        const forked = await admitRequest(
          deps,
          request,
          (admitted) =>
            forkJob(
              { ...deps, blobs: blobsOrDefault(deps) },
              admitted,
              source,
              {
                from: body.from,
                ...(body.prompt_patch !== undefined ? { promptPatch: redactPrompt(body.prompt_patch).text } : {}),
                modelTier: body.model_tier ?? body.metadata?.model_tier,
                ...(body.budget_usd !== undefined ? { budgetUsd: body.budget_usd } : {}),
                ...(pinned ? { product: { template, design, deploy } } : {}),
              },
              request.log,
            ),
          project,
        );
        return reply.code(202).send({
          job_id: forked.job_id,
          workflow_id: forked.workflow_id,
          prompt_id: forked.prompt_id,
          status: 'queued' as const,
          source_job_id: forked.source_job_id,
          from_level_run_id: forked.from_level_run_id,
          carried_level_ids: forked.carried_level_ids,
          links: {
            job: `/v1/jobs/${forked.job_id}`,
            stream: `/v1/jobs/${forked.job_id}/stream`,
            compare: `/v1/jobs/${forked.source_job_id}/compare/${forked.job_id}`,
          },
        });
      },
    );

    app.get(
      '/v1/jobs/:a/compare/:b',
      {
        schema: {
          params: z.object({ a: z.string().min(1).max(100), b: z.string().min(1).max(100) }),
          querystring: z.object({
            a_at: LevelRunId.optional().describe("a level run of a: compare a's workspace as it stood then"),
            b_at: LevelRunId.optional().describe("a level run of b: compare b's workspace as it stood then"),
          }),
          response: { 200: ComparisonSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const a = await visibleJob(deps, principal, request.params.a);
        const b = await visibleJob(deps, principal, request.params.b);
        const { a_at, b_at } = request.query;
        return compareJobs({ pool: deps.pool, blobs: blobsOrDefault(deps) }, a, b, { a: a_at, b: b_at });
      },
    );
  };
}
