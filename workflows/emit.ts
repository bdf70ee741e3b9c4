import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { JobIds } from './definitions';

const { appendEvent } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

export type Emit = (
  role: string,
  kind: string,
  payload: Record<string, unknown>,
  options?: { durationSince?: string },
) => Promise<{ occurred_at: string; sequence: number }>;

/**
 * Returns an emitter whose event keys are `<scope>#<n>:<kind>`. `scope` is the emitting workflow's
 * id and `n` counts its emits, so a replayed or retried emit carries the same key and the append
 * activity drops it.
 */
export function createEmitter(ids: JobIds, scope: string): Emit {
  let count = 0;
  return async (role, kind, payload, options) => {
    count += 1;
    const envelope = await appendEvent({
      ids,
      draft: { key: `${scope}#${count}:${kind}`, agent_role: role, kind, payload },
      durationSince: options?.durationSince,
    });
    return { occurred_at: envelope.occurred_at, sequence: envelope.sequence };
  };
}
