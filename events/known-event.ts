import type { z } from 'zod';
import type { EventEnvelope } from './envelope';
import { EVENT_PAYLOADS, hasContract, type EventKind } from './payloads';

/**
 * An event of a kind Keel emits, its payload typed by that kind's contract (events/payloads.ts): after
 * `event.known && event.kind === 'ask_user'`, `event.payload.call_id` is a string. What consumers (the CLI, the
 * console) read events as, so a payload field is declared once, where the producer's contract declares it.
 */
export type KnownEvent = {
  [K in EventKind]: Omit<EventEnvelope, 'kind' | 'payload'> & {
    known: true;
    kind: K;
    payload: z.output<(typeof EVENT_PAYLOADS)[K]>;
  };
}[EventKind];

/**
 * An event of a kind without a contract here (another writer's, or a newer Keel's), or whose payload does not fit its
 * contract: kept, as a generic row, never dropped (the catalog grows; consumers tolerate what they do not know).
 */
export type OtherEvent = EventEnvelope & { known: false };

export type ParsedEvent = KnownEvent | OtherEvent;

/** Types an envelope by its kind's contract; anything the contracts do not describe stays an `OtherEvent`. */
export function parseEvent(envelope: EventEnvelope): ParsedEvent {
  if (hasContract(envelope.kind)) {
    const payload = EVENT_PAYLOADS[envelope.kind].safeParse(envelope.payload);
    if (payload.success) return { ...envelope, known: true, payload: payload.data } as KnownEvent;
  }
  return { ...envelope, known: false };
}
