import { patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { ACTIVITY_RETRY } from './activity-retry';
import type { EventKind, EventPayload } from '../events/payloads';
import type { JobIds } from './definitions';
import { LOCAL_EMIT_PATCH } from './patches';

// One short transaction: an attempt lost with its worker is retried elsewhere after 10 s, not 30 s, since every job
// the dead worker held waits on it.
const { appendEvent } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: ACTIVITY_RETRY,
});

// The same append run as a local activity (docs/job-history.md): the row is stored and published before the workflow
// goes on, as with a regular activity, but without a task on the task queue and three history events per event; a
// lost attempt is run again on replay under the same key, which the append drops as a duplicate.
const { appendEvent: appendEventLocally, appendEvents: appendEventsLocally } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: ACTIVITY_RETRY,
});

/** Typed by kind: a kind without a contract in events/payloads.ts, or a payload its contract refuses, does not compile. */
export type Emit = <K extends EventKind>(
  role: string,
  kind: K,
  payload: EventPayload<K>,
  options?: { durationSince?: string },
) => Promise<{ occurred_at: string; sequence: number }>;

/** An emitter that can also hold events back to store them with the next one (a lean run, LEAN_HISTORY_PATCH). */
export interface Emitter extends Emit {
  /**
   * Queues an event whose stored envelope the caller does not need: it is stored, in order, with the next event this
   * emitter stores (or at `flush`), all in one local activity. A run recorded before LEAN_HISTORY_PATCH stores it now.
   */
  later<K extends EventKind>(
    role: string,
    kind: K,
    payload: EventPayload<K>,
    options?: { durationSince?: string },
  ): Promise<void>;
  /** Stores the queued events now (and those handed to an activity that has not returned), if there are any. */
  flush(): Promise<void>;
  /**
   * Hands the queued events to the activity `call` starts, which stores them before its own work (activities/
   * told-events.ts): no local activity of their own. Until the activity returns, they are also sent again with the
   * next event stored (a heartbeat while the activity waits for a worker, a failure's `level_finished`), where the
   * append finds them stored or stores them first: their order holds whichever comes first.
   */
  hand<T>(call: (told: { told?: { ids: JobIds; events: Queued[] } }) => Promise<T>): Promise<T>;
}

export type Queued = {
  draft: { key: string; agent_role: string; kind: EventKind; payload: Record<string, unknown> };
  durationSince?: string;
};

/**
 * Returns an emitter whose event keys are `<scope>#<n>:<kind>`. `scope` is the emitting workflow's
 * id and `n` counts its emits, so a replayed or retried emit carries the same key and the append
 * activity drops it. `lean` (the run took LEAN_HISTORY_PATCH, decided by the caller before its first command): appends
 * are local activities without asking LOCAL_EMIT_PATCH, and the events queued by `later` ride with the next append, one
 * local activity (one marker, one round trip to PostgreSQL) for all of them. The keys are the ones the events would
 * have had one by one, counted when each is told.
 */
export function createEmitter(ids: JobIds, scope: string, lean = false): Emitter {
  let count = 0;
  // Decided once, before the workflow's first command, so a history recorded before the patch replays every emit
  // as the activity it ran.
  const append = lean || patched(LOCAL_EMIT_PATCH) ? appendEventLocally : appendEvent;
  let queued: Queued[] = [];
  let handed: Queued[] = [];
  const draftOf = (role: string, kind: EventKind, payload: unknown): Queued['draft'] => {
    count += 1;
    return { key: `${scope}#${count}:${kind}`, agent_role: role, kind, payload: payload as Record<string, unknown> };
  };
  const emit = (async (role, kind, payload, options) => {
    const draft = draftOf(role, kind, payload);
    if (queued.length === 0 && handed.length === 0) {
      const envelope = await append({ ids, draft: draft, durationSince: options?.durationSince });
      return { occurred_at: envelope.occurred_at, sequence: envelope.sequence };
    }
    const events = [...handed, ...queued, { draft, durationSince: options?.durationSince }];
    queued = [];
    const envelopes = await appendEventsLocally({ ids, events: events });
    const envelope = envelopes[envelopes.length - 1]!;
    return { occurred_at: envelope.occurred_at, sequence: envelope.sequence };
  }) as Emitter;
  emit.later = async (role, kind, payload, options) => {
    if (!lean) {
      await emit(role, kind, payload, options);
      return;
    }
    queued.push({ draft: draftOf(role, kind, payload), durationSince: options?.durationSince });
  };
  emit.flush = async () => {
    if (queued.length === 0 && handed.length === 0) return;
    const events = [...handed, ...queued];
    queued = [];
    await appendEventsLocally({ ids, events: events });
  };
  emit.hand = async (call) => {
    if (queued.length === 0) return call({});
    const events = queued;
    queued = [];
    handed = [...handed, ...events];
    const result = await call({ told: { ids, events } });
    handed = handed.filter((h) => !events.includes(h));
    return result;
  };
  return emit;
}
