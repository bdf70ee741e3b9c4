import type { Pool, PoolClient } from 'pg';
import { TERMINAL_JOB_STATUSES } from './jobs';

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];
export type ApprovalDecisionKind = 'approve' | 'reject';

/** What an approval policy saw of a request (pure/approval-policy.ts `ApprovalFacts`, which db/ may not import). */
export interface ApprovalRequestRecord {
  action: string;
  reason: string;
  role: string;
  paths: string[];
  cost_usd: number | null;
  branch: string | null;
}

/** A person an escalation named (approvals/escalation-people.ts). */
export interface EscalatedPerson {
  id: string;
  email: string;
  name: string | null;
}

export interface ApprovalRow {
  approval_id: string;
  job_id: string;
  workflow_id: string;
  waiting_workflow_id: string;
  role: string;
  call_id: string | null;
  action: string;
  reason: string;
  status: ApprovalStatus;
  decided_by: string | null;
  decided_at: Date | null;
  comment: string | null;
  created_at: Date;
  /** What an approval policy saw of the request (docs/approval-policies.md); null on approvals from before policies. */
  request: ApprovalRequestRecord | null;
  /** When the wait reminded its person, escalated and to whom (docs/reminders.md). */
  reminded_at: Date | null;
  escalated_at: Date | null;
  escalated_to: string | null;
  /** Who the escalation named (migration 0035): null before it, or when the target could not be resolved. */
  escalated_people: EscalatedPerson[] | null;
  /** The org of the approval's job (not stored on the approval): who may see and decide it. */
  org_id: string | null;
  /** Who created the approval's job: a member acting through the console sees only their own. */
  job_created_by: string;
}

export interface NewApproval {
  /** `ap-<uuid>`, chosen by the caller so a retried activity writes the same row. */
  approvalId: string;
  jobId: string;
  workflowId: string;
  waitingWorkflowId: string;
  role: string;
  callId?: string;
  action: string;
  reason: string;
  /** The request's facts as the policy saw them. */
  request?: ApprovalRequestRecord;
  /** Decided as it is stored, by a policy's rule (`decidedBy` is `policy:<rule id>`). */
  decided?: { decision: ApprovalDecisionKind; decidedBy: string };
}

/** Every column of the row plus the job's org, from `approvals a JOIN job_runs j`. */
const SELECT_APPROVAL =
  'SELECT a.*, j.org_id, j.created_by AS job_created_by FROM approvals a JOIN job_runs j USING (job_id)';

/**
 * Stores a pending approval, or returns the one already stored under `approvalId`: the workflow's activity may run
 * again after a crash, and the second run must neither fail nor reset a decision taken in between.
 */
export async function createApproval(pool: Pool | PoolClient, approval: NewApproval): Promise<ApprovalRow> {
  await pool.query(
    `INSERT INTO approvals (approval_id, job_id, workflow_id, waiting_workflow_id, role, call_id, action, reason,
                            request, status, decided_by, decided_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $11::text IS NULL THEN NULL ELSE now() END)
     ON CONFLICT (approval_id) DO NOTHING`,
    [
      approval.approvalId,
      approval.jobId,
      approval.workflowId,
      approval.waitingWorkflowId,
      approval.role,
      approval.callId ?? null,
      approval.action,
      approval.reason,
      approval.request ? JSON.stringify(approval.request) : null,
      approval.decided ? statusOf(approval.decided.decision) : 'pending',
      approval.decided?.decidedBy ?? null,
    ],
  );
  const stored = await getApproval(pool, approval.approvalId);
  if (!stored) throw new Error(`approval ${approval.approvalId} vanished right after it was written`);
  return stored;
}

export async function getApproval(pool: Pool | PoolClient, approvalId: string): Promise<ApprovalRow | undefined> {
  const { rows } = await pool.query<ApprovalRow>(`${SELECT_APPROVAL} WHERE a.approval_id = $1`, [approvalId]);
  return rows[0];
}

export interface ApprovalFilter {
  status?: ApprovalStatus;
  job_id?: string;
  workflow_id?: string;
  /** Only approvals of jobs in this project (the job's workflow's). */
  project_slug?: string;
  /** Only approvals of jobs that have not ended (what can still be decided to any effect). */
  jobActive?: boolean;
  limit: number;
  /** Only approvals of this org's jobs; null for every org (admins). Required so no caller forgets the scope. */
  orgId: string | null;
  /** Only approvals of jobs this user created (a member through the console); null or absent for all. */
  createdBy?: string | null;
}

/** Approvals matching every given filter, newest first. */
export async function listApprovals(pool: Pool | PoolClient, filter: ApprovalFilter): Promise<ApprovalRow[]> {
  const conditions: string[] = [];
  const values: unknown[] = [];
  const where = (sql: (param: string) => string, value: unknown) => {
    values.push(value);
    conditions.push(sql(`$${values.length}`));
  };
  if (filter.status !== undefined) where((p) => `a.status = ${p}`, filter.status);
  if (filter.job_id !== undefined) where((p) => `a.job_id = ${p}`, filter.job_id);
  if (filter.workflow_id !== undefined) where((p) => `a.workflow_id = ${p}`, filter.workflow_id);
  if (filter.project_slug !== undefined) {
    where(
      (p) => `EXISTS (SELECT 1 FROM workflows w WHERE w.workflow_id = a.workflow_id AND w.project_slug = ${p})`,
      filter.project_slug,
    );
  }
  if (filter.jobActive) where((p) => `NOT (j.status = ANY(${p}::text[]))`, TERMINAL_JOB_STATUSES);
  if (filter.orgId !== null) where((p) => `j.org_id = ${p}`, filter.orgId);
  if (filter.createdBy) where((p) => `j.created_by = ${p}`, filter.createdBy);
  values.push(filter.limit);
  const { rows } = await pool.query<ApprovalRow>(
    `${SELECT_APPROVAL}
     ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
     ORDER BY a.created_at DESC, a.approval_id DESC
     LIMIT $${values.length}`,
    values,
  );
  return rows;
}

export type DecideOutcome =
  | { outcome: 'decided'; approval: ApprovalRow }
  /** Someone decided first; `approval` is their decision, unchanged. */
  | { outcome: 'already_decided'; approval: ApprovalRow }
  | { outcome: 'not_found' };

/**
 * Decides a pending approval exactly once. The `status = 'pending'` guard in the UPDATE makes the check and the write
 * one atomic step, so of two concurrent deciders (the approvals view and a chat button, say) exactly one wins.
 */
export async function decideApproval(
  pool: Pool | PoolClient,
  approvalId: string,
  decision: ApprovalDecisionKind,
  decidedBy: string,
  comment?: string,
): Promise<DecideOutcome> {
  const { rows } = await pool.query<ApprovalRow>(
    `WITH decided AS (
       UPDATE approvals
          SET status = $2, decided_by = $3, decided_at = now(), comment = $4
        WHERE approval_id = $1 AND status = 'pending'
        RETURNING *
     )
     SELECT d.*, j.org_id FROM decided d JOIN job_runs j USING (job_id)`,
    [approvalId, statusOf(decision), decidedBy, comment ?? null],
  );
  if (rows[0]) return { outcome: 'decided', approval: rows[0] };
  const existing = await getApproval(pool, approvalId);
  return existing ? { outcome: 'already_decided', approval: existing } : { outcome: 'not_found' };
}

const statusOf = (decision: ApprovalDecisionKind): ApprovalStatus => (decision === 'approve' ? 'approved' : 'rejected');

/**
 * Records a milestone of a pending approval's wait (docs/reminders.md): the reminder, or the escalation and its
 * target. Only the first of each counts, so a retried activity keeps the first time.
 */
export async function markApprovalWait(
  pool: Pool | PoolClient,
  approvalId: string,
  milestone: { kind: 'reminded' } | { kind: 'escalated'; to: string; people?: EscalatedPerson[] | null },
): Promise<void> {
  if (milestone.kind === 'reminded') {
    await pool.query('UPDATE approvals SET reminded_at = now() WHERE approval_id = $1 AND reminded_at IS NULL', [
      approvalId,
    ]);
  } else {
    await pool.query(
      `UPDATE approvals SET escalated_at = now(), escalated_to = $2, escalated_people = $3
        WHERE approval_id = $1 AND escalated_at IS NULL`,
      [approvalId, milestone.to, milestone.people ? JSON.stringify(milestone.people) : null],
    );
  }
}

/** A project's newest approvals (what a dry run evaluates), newest first. */
export async function projectApprovals(
  pool: Pool | PoolClient,
  orgId: string,
  projectSlug: string,
  limit: number,
): Promise<ApprovalRow[]> {
  const { rows } = await pool.query<ApprovalRow>(
    `${SELECT_APPROVAL}
      WHERE EXISTS (SELECT 1 FROM workflows w WHERE w.workflow_id = a.workflow_id AND w.org_id = $1
                      AND w.project_slug = $2)
      ORDER BY a.created_at DESC, a.approval_id DESC
      LIMIT $3`,
    [orgId, projectSlug, limit],
  );
  return rows;
}
