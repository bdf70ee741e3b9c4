import { z } from 'zod';

/**
 * Payload contracts of the product-build kinds (docs/product-builds.md, docs/events.md). Loose objects like the rest
 * of the catalog: consumers ignore fields they do not know.
 */
const levelId = z.string();
// Nested objects are plain (not loose): emitters pass typed values, and their extra fields are not part of the event.
const alternatives = z.array(z.object({ id: z.string(), score: z.number() }));
const file = z.object({ path: z.string(), sha256: z.string(), size_bytes: z.number().int().min(0) });
const buildReport = {
  level_id: levelId,
  attempt: z.number().int().min(1),
  step: z.enum(['build', 'test']),
  command: z.string(),
  duration_ms: z.number().int().min(0),
  output_tail: z.string(),
  network: z.enum(['netns', 'none']),
};

export const PRODUCT_PAYLOAD_CONTRACTS = {
  scope_checked: z.looseObject({
    level_id: levelId,
    verdict: z.enum(['in_scope', 'borderline', 'out_of_scope']),
    rule: z.string().nullable(),
    matched: z.array(z.string()),
    rules_checked: z.number().int().min(0),
  }),
  scope_confirmed: z.looseObject({
    level_id: levelId,
    call_id: z.string(),
    confirmed: z.boolean(),
    answer: z.string(),
    rule: z.string().nullable(),
  }),
  clarify_checked: z.looseObject({
    level_id: levelId,
    clear: z.boolean(),
    reason: z.string(),
    question: z.string().optional(),
  }),
  clarify_confirmed: z.looseObject({ level_id: levelId, call_id: z.string(), answer: z.string() }),
  solutions_resolved: z.looseObject({ level_id: levelId, chosen: z.string(), reason: z.string(), alternatives }),
  template_selected: z.looseObject({
    level_id: levelId,
    template_id: z.string(),
    name: z.string(),
    reason: z.string(),
    pinned: z.boolean(),
    alternatives,
  }),
  template_scaffolded: z.looseObject({ level_id: levelId, template_id: z.string(), files: z.array(file) }),
  design_selected: z.looseObject({
    level_id: levelId,
    design_id: z.string(),
    name: z.string(),
    reason: z.string(),
    pinned: z.boolean(),
    alternatives,
  }),
  design_applied: z.looseObject({
    level_id: levelId,
    design_id: z.string(),
    template_id: z.string(),
    path: z.string(),
    layout: z.string(),
    tokens: z.record(z.string(), z.unknown()),
  }),
  build_verify_started: z.looseObject({
    level_id: levelId,
    attempt: z.number().int().min(1),
    template_id: z.string(),
    commands: z.array(z.string()),
  }),
  build_verify_passed: z.looseObject({ ...buildReport, exit_code: z.literal(0) }),
  build_verify_failed: z.looseObject({
    ...buildReport,
    exit_code: z.number().int().nullable(),
    killed: z.enum(['timeout', 'output_cap']).nullable(),
  }),
  vercel_deployed: z.looseObject({
    level_id: levelId,
    deployment_id: z.string(),
    url: z.string(),
    ready_state: z.string(),
    /** How many files went live. */
    files: z.number().int().min(0),
  }),
  vercel_deploy_failed: z.looseObject({
    level_id: levelId,
    status: z.number().int().nullable(),
    message: z.string(),
    deployment_id: z.string().optional(),
  }),
  human_task_assigned: z.looseObject({
    task_id: z.string(),
    title: z.string(),
    detail: z.string(),
    assignee: z.string(),
    due_at: z.string().nullable(),
    state: z.literal('open'),
    level_id: levelId,
    /** The signed, expiring, single-use page where a person outside Keel completes it (docs/answer-links.md). */
    answer_url: z.string().optional(),
  }),
  ui_action: z.looseObject({
    level_id: levelId,
    action: z.enum(['open_approval', 'open_task', 'open_url', 'open_file']),
    target: z.string(),
    label: z.string(),
  }),
  provider_fallback: z.looseObject({
    level_id: levelId,
    /** Rerouted at routing: the paid band nothing configured could serve. */
    from_band: z.array(z.string()).nullable().optional(),
    /** Rerouted by the walk: the paid model that was intended. */
    from_provider: z.string().optional(),
    from_model: z.string().optional(),
    from_tier: z.string().optional(),
    to_provider: z.string(),
    to_model: z.string(),
    to_tier: z.string(),
    reason: z.string(),
  }),
} satisfies Record<string, z.ZodType<Record<string, unknown>>>;
