import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import { decideApproval, getApproval, type ApprovalDecisionKind, type ApprovalRow } from '../db/approvals';
import type { TokenOwner } from '../db/tokens';
import { approvalDecisionSignal } from '../workflows/human-input';
import type { JobsDeps } from './deps';
import { temporalCall } from '../temporal/temporal-call';
import { Conflict, NotFound } from '../refusals/refusal';
import { canSee } from './visibility';

/** Same rule as jobs: an approval is visible to its job's org and to admins; to anyone else it does not exist. */
export async function visibleApproval(deps: JobsDeps, principal: TokenOwner, approvalId: string): Promise<ApprovalRow> {
  const approval = await getApproval(deps.pool, approvalId);
  if (!approval || !canSee(principal, approval.org_id, approval.job_created_by)) {
    throw new NotFound(`approval ${approvalId}`);
  }
  return approval;
}

/**
 * The one decide path, behind `POST /v1/approvals/:id/decide` and the chat system's approve/reject buttons: records the
 * decision (exactly once; `decided_by` is the principal's user id), then wakes the waiting workflow. Throws 404 for an
 * approval the principal cannot see and 409 `approval_decided` when someone decided first. `comment` is already
 * redacted.
 */
export async function decideApprovalAs(
  deps: JobsDeps,
  principal: TokenOwner,
  approvalId: string,
  decision: ApprovalDecisionKind,
  comment: string | undefined,
  log: FastifyBaseLogger,
): Promise<ApprovalRow> {
  await visibleApproval(deps, principal, approvalId);
  return decideApprovalBy(deps, principal.user_id, approvalId, decision, comment, log);
}

/**
 * The decision itself, for a caller that already established the right to make it: the principal's visibility above,
 * or an answer link's signature (jobs/answer-by-link.ts). `decidedBy` is recorded as is (`link:<id>` for a link).
 */
export async function decideApprovalBy(
  deps: JobsDeps,
  decidedBy: string,
  approvalId: string,
  decision: ApprovalDecisionKind,
  comment: string | undefined,
  log: FastifyBaseLogger,
): Promise<ApprovalRow> {
  const result = await decideApproval(deps.pool, approvalId, decision, decidedBy, comment);
  if (result.outcome === 'not_found') throw new NotFound(`approval ${approvalId}`);
  if (result.outcome === 'already_decided') {
    const { status, decided_by } = result.approval;
    throw new Conflict('approval_decided', `approval ${approvalId} was already ${status} by ${decided_by ?? '?'}`);
  }
  const approval = result.approval;

  // The row is the decision; the signal only wakes the waiting workflow. So a failed signal does not undo or
  // fail the decision: a workflow that is gone (finished, cancelled, terminated) has nobody left to wake, and
  // any other failure is logged for an operator, since a retry of this request would only meet the 409.
  try {
    await temporalCall(deps, 'the decision was not signalled', () =>
      deps.temporal.workflow.getHandle(approval.waiting_workflow_id).signal(approvalDecisionSignal, {
        approval_id: approval.approval_id,
        decision,
        ...(comment !== undefined ? { comment } : {}),
        decided_by: decidedBy,
      }),
    );
  } catch (err) {
    const gone = err instanceof WorkflowNotFoundError;
    log[gone ? 'warn' : 'error'](
      { err, approval_id: approval.approval_id, waiting_workflow_id: approval.waiting_workflow_id },
      gone
        ? 'approval decided, but its waiting workflow is gone'
        : 'approval decided, but the decision could not be signalled to its waiting workflow',
    );
  }
  return approval;
}
