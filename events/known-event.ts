import type { z } from 'zod';
import type { EventEnvelope } from './envelope';
import { EVENT_PAYLOADS, hasContract, type EventKind } from './payloads';

/** What any reader holds before it knows the kind: the server's envelope, or a client's looser copy of it. */
interface Envelope {
  kind: string;
  payload: Record<string, unknown>;
}

/** `Omit` that keeps named fields beside an index signature (a loose zod object's type has one; `Omit` drops them). */
type Without<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };

/**
 * An event of a kind Keel emits, its payload typed by that kind's contract (events/payloads.ts): after
 * `event.known && event.kind === 'ask_user'`, `event.payload.call_id` is a string. What consumers (the CLI, the
 * console) read events as, so a payload field is declared once, where the producer's contract declares it. `E` is the
 * reader's own envelope type (the console's is looser than the server's: `schema_version` may be absent).
 */
export type KnownEventOf<E extends Envelope> = {
  [K in EventKind]: Without<E, 'kind' | 'payload'> & {
    known: true;
    kind: K;
    payload: z.output<(typeof EVENT_PAYLOADS)[K]>;
  };
}[EventKind];

/**
 * An event of a kind without a contract here (another writer's, or a newer Keel's), or whose payload does not fit its
 * contract: kept, as a generic row, never dropped (the catalog grows; consumers tolerate what they do not know).
 */
export type OtherEventOf<E extends Envelope> = E & { known: false };

export type ParsedEventOf<E extends Envelope> = KnownEventOf<E> | OtherEventOf<E>;

export type KnownEvent = KnownEventOf<EventEnvelope>;
export type OtherEvent = OtherEventOf<EventEnvelope>;
export type ParsedEvent = ParsedEventOf<EventEnvelope>;

/** Types an envelope by its kind's contract; anything the contracts do not describe stays an other event. */
export function parseEvent<E extends Envelope>(envelope: E): ParsedEventOf<E> {
  if (hasContract(envelope.kind)) {
    const payload = EVENT_PAYLOADS[envelope.kind].safeParse(envelope.payload);
    if (payload.success) return { ...envelope, known: true, payload: payload.data } as KnownEventOf<E>;
  }
  return { ...envelope, known: false };
}
