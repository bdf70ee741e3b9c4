/** Kinds after which the job's row holds a new status: the job waits for a person, or it ended. */
const STATUS_CHANGING_KINDS = new Set(['ask_user', 'approval_requested', 'human_task_assigned', 'final', 'error']);

/**
 * Whether the job page reloads the job's row (GET /v1/jobs/:id) after the stream's newest event, so its status badge
 * shows the API's status. A person's question, approval or task pauses the job and a terminal event ends it; while
 * the row reads `queued` or `paused`, any new event means the job has started or goes on, so the row is read again.
 */
export function reloadsJobRow(lastKind: string | undefined, shownStatus: string | undefined): boolean {
  if (lastKind === undefined) return false;
  return STATUS_CHANGING_KINDS.has(lastKind) || shownStatus === 'queued' || shownStatus === 'paused';
}
