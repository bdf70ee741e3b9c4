import { useEffect, useRef } from 'react';

/** Kinds after which the job's row holds a new status: the job waits for a person, or it ended. */
const STATUS_CHANGING_KINDS = new Set(['ask_user', 'approval_requested', 'human_task_assigned', 'final', 'error']);

/**
 * Whether the job page reloads the job's row (GET /v1/jobs/:id) after an event, so its status badge shows the API's
 * status. A person's question, approval or task pauses the job and a terminal event ends it; while the row reads
 * `queued` or `paused`, any new event means the job has started or goes on, so the row is read again.
 */
export function reloadsJobRow(kind: string | undefined, shownStatus: string | undefined): boolean {
  if (kind === undefined) return false;
  return STATUS_CHANGING_KINDS.has(kind) || shownStatus === 'queued' || shownStatus === 'paused';
}

/**
 * Whether any event after `seenSequence` changes the row. Every new event counts, not only the newest: the stream
 * hands events over in batches, and a product step's `human_task_assigned` arrives with the `ui_action` after it, so
 * looking at the last event alone left the badge on `running` while the job waited for its task.
 */
export function reloadsJobRowAfter(
  events: readonly { sequence: number; kind: string }[],
  seenSequence: number,
  shownStatus: string | undefined,
): boolean {
  return events.some((e) => e.sequence > seenSequence && reloadsJobRow(e.kind, shownStatus));
}

/** Reloads the job's row whenever newly arrived events change its status (see `reloadsJobRowAfter`). */
export function useStatusReload(
  events: readonly { sequence: number; kind: string }[],
  shownStatus: string | undefined,
  reload: () => void,
): void {
  const seen = useRef(0);
  const lastSequence = events.at(-1)?.sequence ?? 0;
  useEffect(() => {
    // Another job's stream (the page was reused for a new id) starts again from the first sequence.
    if (lastSequence < seen.current) seen.current = 0;
    const changed = reloadsJobRowAfter(events, seen.current, shownStatus);
    seen.current = lastSequence;
    if (changed) reload();
  }, [events, lastSequence, shownStatus, reload]);
}
