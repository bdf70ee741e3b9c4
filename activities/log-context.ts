import { Context } from '@temporalio/activity';

/**
 * The job and Temporal workflow a log line belongs to, when logged inside an activity (outside one, nothing). A level's
 * and a build's workflow ids start with the job id and a slash (workflows/definitions.ts), the job's own is the job id.
 */
export function activityLogContext(): Record<string, unknown> | undefined {
  let context: Context;
  try {
    context = Context.current();
  } catch {
    return undefined;
  }
  const workflowId = context.info.workflowExecution?.workflowId;
  if (!workflowId) return { activity: context.info.activityType };
  return { job_id: workflowId.split('/')[0], temporal_workflow_id: workflowId, activity: context.info.activityType };
}
