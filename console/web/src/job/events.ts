import { parseEvent, type KnownEventOf, type ParsedEventOf } from '../../../../events/known-event';
import type { AgentEvent } from '../schemas';

/**
 * An event as the job page holds it: typed by its kind's payload contract, the one the server's emitters are checked
 * against (events/payloads.ts), or kept as a generic row when its kind or payload is one this build does not know.
 * The console ships those contracts to the browser (full zod beside the pages' zod/mini, docs/console.md says what it
 * costs), so a field the server renames is a compile error here, not a blank cell.
 */
export type JobEvent = ParsedEventOf<AgentEvent>;
export type KnownJobEvent = KnownEventOf<AgentEvent>;

export function readEvent(event: AgentEvent): JobEvent {
  return parseEvent(event);
}

/** The known event of one kind, narrowed (for the fields a page keeps, such as the job's `final`). */
export type JobEventOf<K extends KnownJobEvent['kind']> = Extract<KnownJobEvent, { kind: K }>;
