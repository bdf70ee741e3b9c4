/**
 * Where the workflow resources are read from. With a database, PostgreSQL is the record and the queue store the
 * fallback for a direct lookup (a workflow created by a development instance that ran without a database on the same
 * Redis); without one (`npm start` with KEEL_EMBEDDED_DB=off and no POSTGRES_DSN) the queue store holds them all and
 * the list pages with a synthetic cursor, as the spec allows for that development-only fallback.
 */
import type { Pool } from 'pg';
import { z } from 'zod';
import {
  decodeCursor,
  encodeCursor,
  getWorkflow,
  listWorkflows,
  setWorkflowHidden,
  setWorkflowTitle,
  workflowState,
  type ListWorkflowsOptions,
  type WorkflowListRow,
} from '../db/workflow-list';
import type { QueueStore } from '../queue/queue-store';
import { AppError } from '../http/errors';
import { setWorkflowFollowUpPolicy } from '../db/follow-up';
import { FollowUpPolicySchema } from '../jobs/follow-up-policy';
import type { FollowUpPolicy } from '../pure/follow-up-policy';

export interface WorkflowPage {
  rows: WorkflowListRow[];
  nextCursor: string | null;
}

export interface WorkflowDirectory {
  get(workflowId: string): Promise<WorkflowListRow | undefined>;
  /** One page in the spec's order; a cursor this directory did not issue is a 400 `invalid_cursor`. */
  list(options: Omit<ListWorkflowsOptions, 'after'> & { cursor?: string }): Promise<WorkflowPage>;
  /** False when there is no such workflow. */
  setHidden(workflowId: string, hidden: boolean): Promise<boolean>;
  /** Null clears the title (the first prompt's line shows again). False when there is no such workflow. */
  setTitle(workflowId: string, title: string | null): Promise<boolean>;
  /** Null clears the policy (the defaults apply again). False when there is no such workflow. */
  setFollowUpPolicy(workflowId: string, policy: FollowUpPolicy | null): Promise<boolean>;
}

const WORKFLOWS = 'workflows';

const invalidCursor = () => new AppError(400, 'invalid_cursor', 'cursor: not a next_cursor issued by this API');

/** A workflow as the queue store keeps it (the same fields the database rows carry). */
const workflowRecord = z.object({
  workflow_id: z.string(),
  project_slug: z.string().nullable(),
  created_by: z.string(),
  org_id: z.string().nullable(),
  hidden: z.boolean(),
  scenario: z.string(),
  updated_at: z.string(),
  latest_job_id: z.string().nullable(),
  status: z.string().nullable(),
  // Records written before titles existed have none of these.
  title: z.string().nullable().default(null),
  first_prompt: z.string().nullable().default(null),
  created_at: z.string().optional(),
  follow_up_policy: FollowUpPolicySchema.nullable().default(null),
});

/** PostgreSQL first; a direct lookup the database does not know falls back to the queue store. */
export function databaseWorkflows(pool: Pool, queue: QueueStore): WorkflowDirectory {
  const fallback = queueWorkflows(queue);
  return {
    async get(workflowId) {
      return (await getWorkflow(pool, workflowId)) ?? fallback.get(workflowId);
    },
    async list({ cursor, ...options }) {
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      if (cursor !== undefined && !after) throw invalidCursor();
      const rows = await listWorkflows(pool, { ...options, after });
      const last = rows.at(-1);
      // A full page may be the last one; the client then gets one empty page, which is what the spec's rule implies.
      return {
        rows,
        nextCursor: rows.length < options.limit || !last ? null : encodeCursor(last.updated_at, last.workflow_id),
      };
    },
    async setHidden(workflowId, hidden) {
      return (await setWorkflowHidden(pool, workflowId, hidden)) || fallback.setHidden(workflowId, hidden);
    },
    async setTitle(workflowId, title) {
      return (await setWorkflowTitle(pool, workflowId, title)) || fallback.setTitle(workflowId, title);
    },
    async setFollowUpPolicy(workflowId, policy) {
      return (
        (await setWorkflowFollowUpPolicy(pool, workflowId, policy)) || fallback.setFollowUpPolicy(workflowId, policy)
      );
    },
  };
}

/** Byte-wise, as the database's COLLATE "C" tie-break. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The queue store's workflows. Its cursor is synthetic: the offset of the next row (`o:<n>`, base64url), good enough
 * for development, where rows that move between fetches may repeat or be skipped.
 */
export function queueWorkflows(queue: QueueStore): WorkflowDirectory & { put(row: WorkflowListRow): Promise<void> } {
  const get = async (workflowId: string) => {
    const stored = await queue.getRecord(WORKFLOWS, workflowId);
    return stored === undefined ? undefined : workflowRecord.parse(JSON.parse(stored));
  };
  const put = (row: WorkflowListRow) => queue.putRecord(WORKFLOWS, row.workflow_id, JSON.stringify(row));
  return {
    get,
    put,
    async list({ cursor, orgId, createdBy, projectSlug, includeHidden, limit, search, states }) {
      const needle = search?.toLowerCase();
      let offset = 0;
      if (cursor !== undefined) {
        const match = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
        if (!match || Buffer.from(match[0]).toString('base64url') !== cursor) throw invalidCursor();
        offset = Number(match[1]);
      }
      const rows = (await queue.listRecords(WORKFLOWS))
        .map((stored) => workflowRecord.parse(JSON.parse(stored)))
        .filter((row) => orgId === null || row.org_id === orgId)
        .filter((row) => !createdBy || row.created_by === createdBy)
        .filter((row) => projectSlug === undefined || row.project_slug === projectSlug)
        .filter((row) => includeHidden || !row.hidden)
        .filter((row) => !states?.length || (states as readonly string[]).includes(workflowState(row.status)))
        // Without a database only the first prompt is kept beside the workflow, so that is what is searched.
        .filter((row) => !needle || [row.title, row.first_prompt].some((text) => text?.toLowerCase().includes(needle)))
        .sort((a, b) => byteOrder(b.updated_at, a.updated_at) || byteOrder(b.workflow_id, a.workflow_id))
        .slice(offset, offset + limit);
      const next = Buffer.from(`o:${offset + rows.length}`).toString('base64url');
      return { rows, nextCursor: rows.length < limit ? null : next };
    },
    async setHidden(workflowId, hidden) {
      const row = await get(workflowId);
      if (!row) return false;
      await put({ ...row, hidden });
      return true;
    },
    async setTitle(workflowId, title) {
      const row = await get(workflowId);
      if (!row) return false;
      await put({ ...row, title });
      return true;
    },
    async setFollowUpPolicy(workflowId, policy) {
      const row = await get(workflowId);
      if (!row) return false;
      await put({ ...row, follow_up_policy: policy });
      return true;
    },
  };
}
