import type { AppendEventsInput } from './events';

/** Events a workflow hands to its next activity to store first (docs/job-history.md, "Events told by an activity"). */
export interface Told {
  told?: AppendEventsInput;
}

/**
 * The activity `fn`, storing the events handed to it before its own work: one task where there were two (a local
 * activity for the events, then the activity), the events still stored, in order, before anything the work does.
 * Idempotent like any append: a retried attempt finds them stored.
 */
export function telling<I extends object, O>(
  append: (input: AppendEventsInput) => Promise<unknown>,
  fn: (input: I) => Promise<O>,
): (input: I & Told) => Promise<O> {
  return async (input) => {
    const { told, ...rest } = input;
    if (told && told.events.length > 0) await append(told);
    return fn(rest as unknown as I);
  };
}
