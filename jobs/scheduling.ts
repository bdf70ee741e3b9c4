import { z } from 'zod';
import { emptyAsUndefined } from '../config/parse-env';
import type { SlotPolicy } from '../db/job-slots';
import type { JobScheduling } from '../workflows/definitions';

/**
 * Fair scheduling's settings (docs/scheduling.md), read by the API: every job it starts carries them in its input, so
 * the workers that grant slots need no configuration of their own. Off by default: jobs start as they always did.
 */
export const schedulingEnv = z.object({
  /** `true`: every job claims a slot of its org before it runs (docs/scheduling.md); `false` (default): no slots. */
  JOB_SCHEDULING: z.preprocess(emptyAsUndefined, z.stringbool().default(false)),
  /** Running jobs per org unless an admin set the org's own limit; unset: unlimited. */
  JOB_SLOTS_PER_ORG: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).optional()),
  /** Running jobs over every org (what the workers can carry); unset: unlimited. */
  JOB_SLOTS_TOTAL: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).optional()),
  /** `false`: plain FIFO over every org (the bench's baseline) instead of the fair share. */
  JOB_SCHEDULING_FAIR: z.preprocess(emptyAsUndefined, z.stringbool().default(true)),
  /** A queued job claims again this often in case its `slotGranted` signal was lost (ms). */
  JOB_SLOT_RECLAIM_MS: z.coerce.number().int().min(100).default(30_000),
  /** How often the API looks for slots held by closed workflows (terminated from outside) and frees them (ms). */
  JOB_SLOT_SWEEP_MS: z.coerce.number().int().min(100).default(60_000),
});
export type SchedulingEnv = z.infer<typeof schedulingEnv>;

/** The API's scheduling: what each job it starts carries, and how often its sweeper runs. */
export interface SchedulingSettings {
  policy: SlotPolicy;
  reclaimMs: number;
  sweepMs: number;
}

export function schedulingFromEnv(env: SchedulingEnv): SchedulingSettings | undefined {
  if (!env.JOB_SCHEDULING) return undefined;
  return {
    policy: {
      orgSlots: env.JOB_SLOTS_PER_ORG ?? null,
      totalSlots: env.JOB_SLOTS_TOTAL ?? null,
      fair: env.JOB_SCHEDULING_FAIR,
    },
    reclaimMs: env.JOB_SLOT_RECLAIM_MS,
    sweepMs: env.JOB_SLOT_SWEEP_MS,
  };
}

/** A job's `scheduling` input; undefined when scheduling is off. */
export function jobScheduling(
  settings: SchedulingSettings | undefined,
  orgId: string,
  priority: number | undefined,
): JobScheduling | undefined {
  if (!settings) return undefined;
  return { orgId, priority: priority ?? 0, ...settings.policy, reclaimMs: settings.reclaimMs };
}
