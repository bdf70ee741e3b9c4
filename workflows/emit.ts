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
const { appendEvent: appendEventLocally } = proxyLocalActivities<Activities>({
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

/**
 * Returns an emitter whose event keys are `<scope>#<n>:<kind>`. `scope` is the emitting workflow's
 * id and `n` counts its emits, so a replayed or retried emit carries the same key and the append
 * activity drops it.
 */
export function createEmitter(ids: JobIds, scope: string): Emit {
  let count = 0;
  // Decided once, before the workflow's first command, so a history recorded before the patch replays every emit
  // as the activity it ran.
  const append = patched(LOCAL_EMIT_PATCH) ? appendEventLocally : appendEvent;
  return async (role, kind, payload, options) => {
    count += 1;
    const envelope = await append({
      ids,
      draft: { key: `${scope}#${count}:${kind}`, agent_role: role, kind, payload },
      durationSince: options?.durationSince,
    });
    return { occurred_at: envelope.occurred_at, sequence: envelope.sequence };
  };
}
