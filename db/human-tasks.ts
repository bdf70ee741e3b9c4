import type { Pool } from 'pg';
import { TERMINAL_JOB_STATUSES } from './jobs';

export const HUMAN_TASK_STATES = ['open', 'done'] as const;
export type HumanTaskState = (typeof HUMAN_TASK_STATES)[number];

export interface HumanTaskRow {
  task_id: string;
  job_id: string;
  workflow_id: string;
  waiting_workflow_id: string;
  role: string;
  title: string;
  detail: string;
  assignee: string;
  due_at: Date | null;
  state: HumanTaskState;
  completed_by: string | null;
  completed_at: Date | null;
  note: string | null;
  created_at: Date;
  /** The org of the task's job (not stored on the task): who may see and complete it. */
  org_id: string | null;
}

export interface NewHumanTask {
  /** `ht-<uuid>`, chosen by the workflow so a retried activity writes the same row. */
  taskId: string;
  jobId: string;
  workflowId: string;
  waitingWorkflowId: string;
  role: string;
  title: string;
  detail: string;
  assignee: string;
  dueAt: Date | null;
}

const SELECT_TASK = 'SELECT t.*, j.org_id FROM human_tasks t JOIN job_runs j USING (job_id)';

/** Stores an open task, or returns the one already stored under `taskId` (a retried activity must not reset it). */
export async function createHumanTask(pool: Pool, task: NewHumanTask): Promise<HumanTaskRow> {
  await pool.query(
    `INSERT INTO human_tasks (task_id, job_id, workflow_id, waiting_workflow_id, role, title, detail, assignee, due_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (task_id) DO NOTHING`,
    [
      task.taskId,
      task.jobId,
      task.workflowId,
      task.waitingWorkflowId,
      task.role,
      task.title,
      task.detail,
      task.assignee,
      task.dueAt,
    ],
  );
  return (await getHumanTask(pool, task.taskId))!;
}

export async function getHumanTask(pool: Pool, taskId: string): Promise<HumanTaskRow | undefined> {
  const { rows } = await pool.query<HumanTaskRow>(`${SELECT_TASK} WHERE t.task_id = $1`, [taskId]);
  return rows[0];
}

export async function listHumanTasks(
  pool: Pool,
  filter: {
    orgId: string | null;
    state?: HumanTaskState;
    assignee?: string;
    job_id?: string;
    /** Only tasks of jobs in this project (the job's workflow's). */
    project_slug?: string;
    /** Only tasks of jobs that have not ended (what can still be completed to any effect). */
    jobActive?: boolean;
    limit: number;
  },
): Promise<HumanTaskRow[]> {
  const { rows } = await pool.query<HumanTaskRow>(
    `${SELECT_TASK}
      WHERE ($1::text IS NULL OR j.org_id = $1)
        AND ($2::text IS NULL OR t.state = $2)
        AND ($3::text IS NULL OR t.assignee = $3)
        AND ($4::text IS NULL OR t.job_id = $4)
        AND ($6::text IS NULL OR EXISTS (
          SELECT 1 FROM workflows w WHERE w.workflow_id = t.workflow_id AND w.project_slug = $6))
        AND (NOT $7::boolean OR NOT (j.status = ANY($8::text[])))
      ORDER BY t.created_at DESC, t.task_id DESC
      LIMIT $5`,
    [
      filter.orgId,
      filter.state ?? null,
      filter.assignee ?? null,
      filter.job_id ?? null,
      filter.limit,
      filter.project_slug ?? null,
      filter.jobActive ?? false,
      TERMINAL_JOB_STATUSES,
    ],
  );
  return rows;
}

/** Marks an open task done, exactly once: a second completion finds it closed and changes nothing. */
export async function completeHumanTask(
  pool: Pool,
  taskId: string,
  completedBy: string,
  note: string | undefined,
): Promise<{ outcome: 'completed' | 'not_found' | 'already_done'; task?: HumanTaskRow }> {
  const { rowCount } = await pool.query(
    `UPDATE human_tasks SET state = 'done', completed_by = $2, completed_at = now(), note = $3
      WHERE task_id = $1 AND state = 'open'`,
    [taskId, completedBy, note ?? null],
  );
  const task = await getHumanTask(pool, taskId);
  if (!task) return { outcome: 'not_found' };
  return { outcome: rowCount === 1 ? 'completed' : 'already_done', task };
}
