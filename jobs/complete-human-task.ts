import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import { completeHumanTask, getHumanTask, type HumanTaskRow } from '../db/human-tasks';
import type { TokenOwner } from '../db/tokens';
import { Conflict, NotFound } from '../refusals/refusal';
import { humanTaskCompletedSignal } from '../workflows/product-definitions';
import type { JobsDeps } from './deps';
import { temporalCall } from '../temporal/temporal-call';
import { canSee } from './visibility';

/** Same rule as jobs and approvals: a task is visible to its job's org and to admins; to anyone else it does not exist. */
export async function visibleHumanTask(deps: JobsDeps, principal: TokenOwner, taskId: string): Promise<HumanTaskRow> {
  const task = await getHumanTask(deps.pool, taskId);
  if (!task || !canSee(principal, task.org_id)) throw new NotFound(`human task ${taskId}`);
  return task;
}

/**
 * Completes a human task once (409 `task_done` when it already is), then wakes the workflow waiting on it. The row
 * is the record; as with approvals, a failed signal is logged, not undone. Anyone in the task's org may complete it:
 * the assignee is who the task is for, not a lock (a teammate may add the token for them).
 */
export async function completeHumanTaskAs(
  deps: JobsDeps,
  principal: TokenOwner,
  taskId: string,
  note: string | undefined,
  log: FastifyBaseLogger,
): Promise<HumanTaskRow> {
  await visibleHumanTask(deps, principal, taskId);
  return completeHumanTaskBy(deps, principal.user_id, taskId, note, log);
}

/**
 * The completion itself, for a caller that already established the right to make it: the principal's visibility above,
 * or an answer link's signature (jobs/answer-by-link.ts). `completedBy` is recorded as is (`link:<id>` for a link).
 */
export async function completeHumanTaskBy(
  deps: JobsDeps,
  completedBy: string,
  taskId: string,
  note: string | undefined,
  log: FastifyBaseLogger,
): Promise<HumanTaskRow> {
  const result = await completeHumanTask(deps.pool, taskId, completedBy, note);
  if (result.outcome === 'not_found') throw new NotFound(`human task ${taskId}`);
  if (result.outcome === 'already_done') {
    throw new Conflict('task_done', `human task ${taskId} was already completed by ${result.task?.completed_by}`);
  }
  const task = result.task!;
  try {
    await temporalCall(deps, 'the completion was not signalled', () =>
      deps.temporal.workflow.getHandle(task.waiting_workflow_id).signal(humanTaskCompletedSignal, {
        task_id: task.task_id,
        completed_by: completedBy,
        ...(note !== undefined ? { note } : {}),
      }),
    );
  } catch (err) {
    const gone = err instanceof WorkflowNotFoundError;
    log[gone ? 'warn' : 'error'](
      { err, task_id: task.task_id, waiting_workflow_id: task.waiting_workflow_id },
      gone ? 'human task completed, but its waiting workflow is gone' : 'human task completed, but the signal failed',
    );
  }
  return task;
}
