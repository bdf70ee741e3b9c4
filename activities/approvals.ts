import { log } from '@temporalio/activity';
import type { Pool } from 'pg';
import { policyForJob } from '../db/approval-policies';
import { createApproval as storeApproval, decideApproval, markApprovalWait } from '../db/approvals';
import { escalationRole, type PeopleDirectory, type Person } from '../approvals/escalation-people';
import { checkPolicy } from '../approvals/policy-schema';
import { TIMEOUT_DECIDER, type ApprovalFacts, type ApprovalPolicy } from '../pure/approval-policy';

export function approvalActivities(deps: { pool: Pool; people?: PeopleDirectory }) {
  return {
    /**
     * Writes the durable approval record a level waits on; idempotent on `approval_id` (chosen by the workflow). With
     * `decided`, a policy's rule decided it: the row is stored decided and nobody waits on it.
     */
    async createApproval(input: {
      approval_id: string;
      job_id: string;
      workflow_id: string;
      waiting_workflow_id: string;
      role: string;
      call_id: string;
      action: string;
      reason: string;
      request?: ApprovalFacts;
      decided?: { decision: 'approve' | 'reject'; decided_by: string };
    }): Promise<void> {
      await storeApproval(deps.pool, {
        approvalId: input.approval_id,
        jobId: input.job_id,
        workflowId: input.workflow_id,
        waitingWorkflowId: input.waiting_workflow_id,
        role: input.role,
        callId: input.call_id,
        action: input.action,
        reason: input.reason,
        ...(input.request ? { request: input.request } : {}),
        ...(input.decided
          ? { decided: { decision: input.decided.decision, decidedBy: input.decided.decided_by } }
          : {}),
      });
    },

    /**
     * The approval policy of the job's project (docs/approval-policies.md) and the job's cost so far. A stored policy
     * that no longer parses (the schema moved on) counts as none: every approval then goes to a person, and it is
     * logged for an admin.
     */
    async approvalPolicyFor(input: {
      jobId: string;
    }): Promise<{ projectSlug: string | null; policy: ApprovalPolicy | null; jobCostUsd: number }> {
      const found = await policyForJob(deps.pool, input.jobId);
      if (found.policy === null) return { ...found, policy: null };
      const checked = checkPolicy(found.policy);
      if (!checked.ok) {
        log.warn('stored approval policy does not parse; approvals go to a person', {
          jobId: input.jobId,
          projectSlug: found.projectSlug,
          issues: checked.issues,
        });
        return { ...found, policy: null };
      }
      return { ...found, policy: checked.policy };
    },

    /** Records that a pending approval's wait reminded or escalated (docs/reminders.md); idempotent. */
    async markApprovalWait(
      input:
        | { approvalId: string; kind: 'reminded' }
        | { approvalId: string; kind: 'escalated'; to: string; people?: Person[] | null },
    ): Promise<void> {
      await markApprovalWait(
        deps.pool,
        input.approvalId,
        input.kind === 'reminded'
          ? { kind: 'reminded' }
          : { kind: 'escalated', to: input.to, people: input.people ?? null },
      );
    },

    /**
     * The people an escalation names (approvals/escalation-people.ts): the enabled users of the target's identity role
     * (`project_owners`: the admins). null when this worker has no way to the identity service's users, or it did not
     * answer: the escalation then names its target alone rather than waiting, and it is logged. Never throws.
     */
    async escalationPeople(input: { to: string }): Promise<Person[] | null> {
      if (!deps.people) return null;
      try {
        return await deps.people.withRole(escalationRole(input.to));
      } catch (err) {
        log.warn('escalation target not resolved to people; the escalation names the target alone', {
          to: input.to,
          error: (err as Error).message,
        });
        return null;
      }
    },

    /**
     * Decides a timed-out approval as the schedule says (`decided_by` `timeout`), unless a person decided first: the
     * decision that stands is returned either way, so the level goes on with the one the row records.
     */
    async timeOutApproval(input: {
      approvalId: string;
      decision: 'approve' | 'reject';
    }): Promise<{ decision: 'approve' | 'reject'; decided_by: string; comment?: string; timed_out: boolean }> {
      const result = await decideApproval(deps.pool, input.approvalId, input.decision, TIMEOUT_DECIDER);
      if (result.outcome === 'not_found') throw new Error(`approval ${input.approvalId} is not stored`);
      const row = result.approval;
      return {
        decision: row.status === 'approved' ? 'approve' : 'reject',
        decided_by: row.decided_by ?? TIMEOUT_DECIDER,
        ...(row.comment ? { comment: row.comment } : {}),
        timed_out: result.outcome === 'decided' || row.decided_by === TIMEOUT_DECIDER,
      };
    },
  };
}
