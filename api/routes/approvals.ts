import { PersonSchema } from '../../approvals/escalation-people';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { APPROVAL_STATUSES, listApprovals, type ApprovalRow } from '../../db/approvals';
import { decideApprovalAs, visibleApproval } from '../../jobs/decide-approval';
import type { ApiDeps } from '../deps';
import { principalOf } from '../plugins/principal';
import { creatorScope, orgScope } from '../../jobs/visibility';
import { redactPrompt } from '../../jobs/redact';
import { ErrorSchema } from './chat';

const MAX_COMMENT_CHARS = 2_000;

const ApprovalParams = z.object({ id: z.string().min(1).max(100) });

// Strict, so a misspelt filter (`?stauts=pending`) is a 400 rather than a silently unfiltered list.
const ApprovalListQuery = z.strictObject({
  status: z.enum(APPROVAL_STATUSES).optional(),
  job_id: z.string().min(1).max(100).optional(),
  workflow_id: z.string().min(1).max(100).optional(),
  project_slug: z.string().min(1).max(64).optional(),
  job_active: z
    .enum(['true', 'false'])
    .optional()
    .describe("`true`: only those of jobs that have not ended (the console's inbox)"),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const DecideBody = z.strictObject({
  decision: z.enum(['approve', 'reject']),
  comment: z.string().trim().max(MAX_COMMENT_CHARS).optional(),
});

export const ApprovalSchema = z.object({
  approval_id: z.string(),
  job_id: z.string(),
  workflow_id: z.string(),
  role: z.string(),
  call_id: z.string().nullable(),
  action: z.string(),
  reason: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  comment: z.string().nullable(),
  created_at: z.string(),
  /** What the project's approval policy saw (docs/approval-policies.md); null on approvals from before policies. */
  request: z
    .object({
      action: z.string(),
      reason: z.string(),
      role: z.string(),
      paths: z.array(z.string()),
      cost_usd: z.number().nullable(),
      branch: z.string().nullable(),
    })
    .nullable(),
  /** The wait's reminder and escalation (docs/reminders.md); a timeout is `decided_by: "timeout"`. */
  reminded_at: z.string().nullable(),
  escalated_at: z.string().nullable(),
  escalated_to: z.string().nullable(),
  /** Who the escalation named: the people behind `escalated_to`; null when not escalated or not resolved. */
  escalated_people: z.array(PersonSchema).nullable(),
});

/** The API's view of a row: the waiting workflow and the org stay internal. */
function approvalView(row: ApprovalRow): z.infer<typeof ApprovalSchema> {
  return {
    approval_id: row.approval_id,
    job_id: row.job_id,
    workflow_id: row.workflow_id,
    role: row.role,
    call_id: row.call_id,
    action: row.action,
    reason: row.reason,
    status: row.status,
    decided_by: row.decided_by,
    decided_at: row.decided_at ? row.decided_at.toISOString() : null,
    comment: row.comment,
    created_at: row.created_at.toISOString(),
    request: row.request,
    reminded_at: row.reminded_at ? row.reminded_at.toISOString() : null,
    escalated_at: row.escalated_at ? row.escalated_at.toISOString() : null,
    escalated_to: row.escalated_to,
    escalated_people: row.escalated_people ?? null,
  };
}

export function approvalRoutes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/approvals',
      {
        schema: {
          querystring: ApprovalListQuery,
          response: { 200: z.object({ approvals: z.array(ApprovalSchema) }), 400: ErrorSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const { job_active, ...query } = request.query;
        const rows = await listApprovals(deps.pool, {
          ...query,
          jobActive: job_active === 'true',
          orgId: orgScope(principal),
          createdBy: creatorScope(principal),
        });
        return { approvals: rows.map(approvalView) };
      },
    );

    app.get(
      '/v1/approvals/:id',
      { schema: { params: ApprovalParams, response: { 200: ApprovalSchema, 404: ErrorSchema } } },
      async (request) => approvalView(await visibleApproval(deps, principalOf(request), request.params.id)),
    );

    app.post(
      '/v1/approvals/:id/decide',
      {
        schema: {
          params: ApprovalParams,
          body: DecideBody,
          response: { 200: ApprovalSchema, 400: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema },
        },
      },
      async (request) => {
        // The comment is stored and handed to the waiting level, which may put it in a model's context.
        const comment = request.body.comment ? redactPrompt(request.body.comment).text : undefined;
        const approval = await decideApprovalAs(
          deps,
          principalOf(request),
          request.params.id,
          request.body.decision,
          comment,
          request.log,
        );
        return approvalView(approval);
      },
    );
  };
}
