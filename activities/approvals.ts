import type { Pool } from 'pg';
import { createApproval as storeApproval } from '../db/approvals';

export function approvalActivities(deps: { pool: Pool }) {
  return {
    /** Writes the durable approval record a level waits on; idempotent on `approval_id` (chosen by the workflow). */
    async createApproval(input: {
      approval_id: string;
      job_id: string;
      workflow_id: string;
      waiting_workflow_id: string;
      role: string;
      call_id: string;
      action: string;
      reason: string;
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
      });
    },
  };
}
