import { personLabel } from '../people';
import type { Person } from '../people-schemas';
import type { Workflow } from '../schemas';
import { formatDuration } from '../time';

/**
 * How long the latest job ran: finished minus started, or, while it runs, so far (as of `now`). A job that has not
 * started shows a dash.
 */
export function runDuration(row: Pick<Workflow, 'started_at' | 'finished_at'>, now: number): string {
  if (!row.started_at) return '—';
  const start = Date.parse(row.started_at);
  if (row.finished_at) return formatDuration(Date.parse(row.finished_at) - start);
  return `${formatDuration(Math.max(0, now - start))} so far`;
}

/** The creator as the reader knows them: "you" for their own runs, else by name or email (see personLabel). */
export function creatorLabel(
  createdBy: string,
  viewerId: string,
  people: ReadonlyMap<string, Person> | undefined,
): string {
  return createdBy === viewerId ? 'you' : personLabel(createdBy, people);
}

const compact = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** A start time short enough for a list column (the full time is the element's title). */
export function compactDateTime(iso: string | null): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : compact.format(date);
}
