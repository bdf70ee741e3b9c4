/**
 * The read side of workflows: the keyset-paginated list behind GET /v1/workflows and single lookups.
 *
 * Sample plan (PostgreSQL 15; 20,000 rows over 20 orgs, ANALYZEd, no planner switches; an org's page after a cursor):
 *
 *   Limit  (cost=8.58..206.25 rows=20 width=135)
 *     ->  Nested Loop Left Join  (cost=8.58..4584.52 rows=463 width=135)
 *           ->  Index Scan using workflows_list_org_idx on workflows w  (cost=0.41..786.77 rows=463 width=39)
 *                 Index Cond: ((org_id = 'org-plan-3'::text) AND (ROW(updated_at, (workflow_id)::text)
 *                   < ROW('2026-07-01 01:00:00+00'::timestamp with time zone, 'wf-2010800'::text)) AND (hidden = false))
 *           ->  Limit  (cost=8.17..8.18 rows=1 width=72)
 *                 ->  Sort  (cost=8.17..8.18 rows=1 width=72)
 *                       Sort Key: j.created_at DESC, j.job_id DESC
 *                       ->  Index Scan using job_runs_workflow_idx on job_runs j  (cost=0.14..8.16 rows=1 width=72)
 *                             Index Cond: (workflow_id = w.workflow_id)
 *
 * The keyset row comparison is part of the Index Cond (the scan starts at the cursor) and no Sort orders workflows;
 * the only sort picks each listed workflow's latest job among its few runs.
 */
import type { FollowUpPolicy } from './follow-up';
import type { Pool } from 'pg';

/** A list page position: the last row of the previous page, as the cursor carries it. */
export interface WorkflowCursor {
  /** RFC 3339 in UTC with microseconds, exactly as PostgreSQL stores it, so equal-millisecond rows are not skipped. */
  updatedAt: string;
  workflowId: string;
}

export interface ListWorkflowsOptions {
  /** The caller's org; null for an admin, who sees every org. */
  orgId: string | null;
  /** Only workflows this user created (a member's own list through the console); null or absent for all. */
  createdBy?: string | null;
  projectSlug?: string;
  includeHidden: boolean;
  limit: number;
  after?: WorkflowCursor;
  /** Case-insensitive substring of the title or of any prompt of the workflow (matched literally: no wildcards). */
  search?: string;
  /** Only workflows in one of these states (workflowState's names). */
  states?: readonly WorkflowState[];
}

export interface WorkflowListRow {
  workflow_id: string;
  project_slug: string | null;
  created_by: string;
  org_id: string | null;
  hidden: boolean;
  /** RFC 3339, UTC, microsecond precision (formatted by PostgreSQL: a JS Date would drop the microseconds). */
  updated_at: string;
  /** The scenario the workflow runs (its graph is seeded from it). */
  scenario: string;
  latest_job_id: string | null;
  /** The latest job's status; null for a workflow without jobs. */
  status: string | null;
  /** The title its owner set; null when none was, and the first line of `first_prompt` stands for it. */
  title?: string | null;
  /** The start of the workflow's first prompt (enough for a title), null if it has none. */
  first_prompt?: string | null;
  /** When the workflow was created (RFC 3339, UTC). */
  created_at?: string;
  /** When the latest job started and finished running (null until it does). */
  started_at?: string | null;
  finished_at?: string | null;
  /** What all the workflow's jobs cost so far, in USD. */
  cost_usd?: number;
  /** The workflow's follow-up policy (docs/follow-up-policies.md); null when none was set. */
  follow_up_policy?: FollowUpPolicy | null;
}

/**
 * A workflow's state from its latest job's: the spec's non-terminal states are `running`, `processing`, `queued` and
 * `pending`, so a job waiting for a person (`paused`) and a workflow with no job yet read `pending`; a terminal job
 * state is the workflow's. Keel does not produce `processing` (clients treat it as non-terminal all the same).
 */
export function workflowState(jobStatus: string | null): string {
  if (jobStatus === null || jobStatus === 'paused') return 'pending';
  return jobStatus;
}

/**
 * The states a list can be filtered by: the non-terminal ones and the terminal job states, and `paused`, the part of
 * `pending` whose latest job waits for a person (the word the job page and `keel job` show). A listed workflow's
 * `status` is never `paused`: it reads `pending`, as the spec says.
 */
export const WORKFLOW_STATES = ['running', 'queued', 'pending', 'paused', 'completed', 'failed', 'cancelled'] as const;
export type WorkflowState = (typeof WORKFLOW_STATES)[number];

/** The latest job statuses each state stands for (`pending` also covers a workflow without a job: NULL). */
const JOB_STATUSES: Record<WorkflowState, string[]> = {
  running: ['running', 'processing'],
  queued: ['queued'],
  pending: ['paused'],
  paused: ['paused'],
  completed: ['completed'],
  failed: ['failed'],
  cancelled: ['cancelled'],
};

/** How long a title may be, in characters (the column's CHECK says the same). */
export const MAX_TITLE_CHARS = 200;

/**
 * The title a workflow shows when its owner set none: the first non-blank line of its first prompt, whitespace folded,
 * cut to MAX_TITLE_CHARS with an ellipsis.
 */
export function defaultTitle(firstPrompt: string | null | undefined): string | null {
  const line = (firstPrompt ?? '')
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .find((l) => l !== '');
  if (!line) return null;
  return line.length > MAX_TITLE_CHARS ? `${line.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…` : line;
}

/** A LIKE pattern matching `text` literally anywhere: `\`, `%` and `_` are escaped (the query says ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const WORKFLOW_ID = /^wf-[0-9]+$/;
const CURSOR_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/;
const BASE64URL_UNPADDED = /^[A-Za-z0-9_-]+$/;
/** Far longer than any cursor we issue (about 50 characters); a bound before decoding anything. */
const MAX_CURSOR_CHARS = 200;

const ROW_COLUMNS = `w.workflow_id, w.project_slug, w.created_by, w.org_id, w.hidden, w.scenario, w.title,
       w.follow_up_policy,
       w.updated_at AS updated_at_raw,
       to_char(w.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at,
       to_char(w.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
       latest.job_id AS latest_job_id, latest.status,
       to_char(latest.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS started_at,
       to_char(latest.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS finished_at`;

/**
 * What a row adds once its page is chosen: the cost of all its jobs and the start of its first prompt (the default
 * title). Kept out of the page's own query, so they run for the rows returned only and the planner picks the page's
 * index exactly as without them.
 */
const ROW_EXTRAS = `
       COALESCE((SELECT sum(c.cost_usd) FROM job_runs c WHERE c.workflow_id = page.workflow_id), 0)::float8 AS cost_usd,
       (SELECT left(p.prompt, 1000) FROM prompt_threads p
         WHERE p.workflow_id = page.workflow_id
         ORDER BY p.created_at, p.prompt_id
         LIMIT 1) AS first_prompt`;

/** The latest job by creation; a workflow has few jobs and job_runs_workflow_idx finds them. */
const LATEST_JOB = `LEFT JOIN LATERAL (
         SELECT j.job_id, j.status, j.started_at, j.finished_at FROM job_runs j
          WHERE j.workflow_id = w.workflow_id
          ORDER BY j.created_at DESC, j.job_id DESC
          LIMIT 1
       ) latest ON true`;

export function encodeCursor(updatedAt: string, workflowId: string): string {
  return Buffer.from(`${updatedAt}|${workflowId}`, 'utf8').toString('base64url');
}

/** The cursor's pair, or undefined for anything we would not have issued. */
export function decodeCursor(cursor: string): WorkflowCursor | undefined {
  if (cursor.length > MAX_CURSOR_CHARS || !BASE64URL_UNPADDED.test(cursor) || cursor.length % 4 === 1) return undefined;
  const buffer = Buffer.from(cursor, 'base64url');
  // Node's decoder skips bad input silently; a cursor that does not re-encode to itself was not ours.
  if (buffer.toString('base64url') !== cursor) return undefined;
  const text = buffer.toString('utf8');
  const parts = text.split('|');
  if (parts.length !== 2) return undefined;
  const [updatedAt, workflowId] = parts as [string, string];
  if (!WORKFLOW_ID.test(workflowId)) return undefined;
  const time = CURSOR_TIME.exec(updatedAt);
  if (!time) return undefined;
  // Date.parse rolls some impossible dates over (Feb 30); a round trip of the second-level part refuses them.
  const ms = Date.parse(`${time[1]}Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== time[1]) return undefined;
  return { updatedAt, workflowId };
}

/** The list query as text and values, exported so a test can EXPLAIN exactly what the API runs. */
export function listWorkflowsQuery(options: ListWorkflowsOptions): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const where: string[] = [];
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  if (options.orgId !== null) where.push(`w.org_id = ${param(options.orgId)}`);
  if (options.createdBy) where.push(`w.created_by = ${param(options.createdBy)}`);
  if (options.projectSlug !== undefined) where.push(`w.project_slug = ${param(options.projectSlug)}`);
  if (!options.includeHidden) where.push('w.hidden = false');
  if (options.search) {
    // ILIKE on an escaped pattern: a literal substring, case-insensitive, in any locale's text. No index serves a
    // leading-wildcard match without pg_trgm, so the keyset scan checks rows in list order until a page is full
    // (docs/console.md, "Runs that say what they were", has the measurements and why not trigram or tsvector).
    const pattern = param(containsPattern(options.search));
    where.push(`(w.title ILIKE ${pattern} ESCAPE '\\'
         OR EXISTS (SELECT 1 FROM prompt_threads s
                     WHERE s.workflow_id = w.workflow_id AND s.prompt ILIKE ${pattern} ESCAPE '\\'))`);
  }
  if (options.states && options.states.length > 0) {
    const statuses = options.states.flatMap((state) => JOB_STATUSES[state]);
    const orNone = options.states.includes('pending') ? 'latest.status IS NULL OR ' : '';
    where.push(`(${orNone}latest.status = ANY(${param(statuses)}::text[]))`);
  }
  if (options.after) {
    // A row comparison on the index's two ordering columns becomes the scan's start key, not a filter.
    where.push(
      `(w.updated_at, w.workflow_id COLLATE "C") < (${param(options.after.updatedAt)}::timestamptz, ${param(options.after.workflowId)})`,
    );
  }
  const text = `SELECT page.*, ${ROW_EXTRAS}
  FROM (SELECT ${ROW_COLUMNS}
          FROM workflows w
          ${LATEST_JOB}
         ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY w.updated_at DESC, w.workflow_id COLLATE "C" DESC
         LIMIT ${param(options.limit)}) page
 ORDER BY page.updated_at_raw DESC, page.workflow_id COLLATE "C" DESC`;
  return { text, values };
}

/** One page of workflows, newest first (updated_at desc, then workflow_id desc byte-wise). */
export async function listWorkflows(pool: Pool, options: ListWorkflowsOptions): Promise<WorkflowListRow[]> {
  const { text, values } = listWorkflowsQuery(options);
  const { rows } = await pool.query<WorkflowListRow & { updated_at_raw?: Date }>(text, values);
  return rows.map(withoutRawTime);
}

/** A workflow whether hidden or not (hidden only affects listing), with its latest job's status. */
export async function getWorkflow(pool: Pool, workflowId: string): Promise<WorkflowListRow | undefined> {
  const { rows } = await pool.query<WorkflowListRow & { updated_at_raw?: Date }>(
    `SELECT page.*, ${ROW_EXTRAS}
       FROM (SELECT ${ROW_COLUMNS}
               FROM workflows w
               ${LATEST_JOB}
              WHERE w.workflow_id = $1) page`,
    [workflowId],
  );
  return rows.map(withoutRawTime)[0];
}

/** Sets the hidden flag without touching updated_at: hiding is not activity. False when there is no such workflow. */
export async function setWorkflowHidden(pool: Pool, workflowId: string, hidden: boolean): Promise<boolean> {
  const result = await pool.query('UPDATE workflows SET hidden = $2 WHERE workflow_id = $1', [workflowId, hidden]);
  return result.rowCount === 1;
}

/**
 * Sets the title (null goes back to the first prompt's line) without touching updated_at: renaming is not activity,
 * so the list's order does not move under the person who renamed a row. False when there is no such workflow.
 */
export async function setWorkflowTitle(pool: Pool, workflowId: string, title: string | null): Promise<boolean> {
  const result = await pool.query('UPDATE workflows SET title = $2 WHERE workflow_id = $1', [workflowId, title]);
  return result.rowCount === 1;
}

/** The timestamp the outer query orders by is not part of a row. */
function withoutRawTime({
  updated_at_raw: _raw,
  ...row
}: WorkflowListRow & { updated_at_raw?: Date }): WorkflowListRow {
  return row;
}
