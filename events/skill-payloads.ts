import { z } from 'zod';

/**
 * Payload contracts of the skill-acquisition kinds (capability roadmaps, work item product builds, vertical
 * discovery). Loose like the others: fields may be added; consumers ignore what they do not know.
 */
export const skillPayloads = {
  product_build_started: z.looseObject({
    work_item: z.string(),
    work_type: z.string(),
    capabilities: z.array(z.looseObject({ name: z.string(), status: z.string() })),
    /** Capabilities the org lacks: the job acquires them before it builds. */
    missing: z.array(z.string()),
  }),
  acquisition_unit_started: z.looseObject({
    roadmap_id: z.string(),
    capability: z.string(),
    unit: z.string(),
    kind: z.string(),
    attempt: z.number().int().min(1),
    unit_id: z.string(),
  }),
  acquisition_unit_verified: z.looseObject({
    roadmap_id: z.string(),
    capability: z.string(),
    unit: z.string(),
    attempt: z.number().int().min(1),
    evidence: z.array(z.string()),
  }),
  acquisition_unit_failed: z.looseObject({
    roadmap_id: z.string(),
    capability: z.string(),
    unit: z.string(),
    attempt: z.number().int().min(1),
    reason: z.string(),
    /** True when this was the last attempt the rule allows (1 + 3 retries). */
    final: z.boolean(),
  }),
  capability_acquired: z.looseObject({
    roadmap_id: z.string(),
    capability: z.string(),
    units: z.array(z.looseObject({ unit: z.string(), attempts: z.number().int() })),
  }),
  capability_acquisition_blocked: z.looseObject({
    roadmap_id: z.string(),
    capability: z.string(),
    unit: z.string(),
    reason: z.string(),
    /** What a person must do before planning the capability again. */
    action: z.string(),
  }),
  vertical_discovery_started: z.looseObject({
    vertical_id: z.string(),
    name: z.string(),
  }),
  vertical_planning_resumed: z.looseObject({
    vertical_id: z.string(),
    call_id: z.string(),
    confirmed: z.boolean(),
    note: z.string().optional(),
  }),
} as const;

export type SkillEventKind = keyof typeof skillPayloads;
export type SkillPayload<K extends SkillEventKind> = z.infer<(typeof skillPayloads)[K]>;
